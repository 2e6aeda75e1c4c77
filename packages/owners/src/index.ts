/** @skiptrace/owners — pure functions: owner-of-record strings as rolls write them, parsed into owners with a kind. */
export { cleanOwnerText, decideOrder, kindOfTokens, parseOwnerNames, parseOwnerParts } from './owner-names.ts';
export type { OwnerKind, OwnerNameParts, OwnerOfRecord } from './owner-names.ts';
