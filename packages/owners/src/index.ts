/**
 * @skiptrace/owners — pure functions: owner-of-record strings as rolls write them, parsed into owners with a kind.
 */
export {
  cleanOwnerText,
  decideOrder,
  detectNameOrder,
  NAME_ORDER_RECORDS,
  kindOfTokens,
  parseOwnerNames,
  parseOwnerParts,
} from './owner-names.ts';
export type { NameOrder, OwnerKind, OwnerNameOptions, OwnerNameParts, OwnerOfRecord } from './owner-names.ts';
