/**
 * @skiptrace/owners — pure functions: owner-of-record strings as rolls write them, parsed into owners with a kind;
 * and a generated owner world (people who move over twenty years, and a roll) for the demo and the owner evaluation.
 */
export {
  cleanOwnerText,
  decideOrder,
  detectNameOrder,
  kindOfTokens,
  parseOwnerNames,
  parseOwnerParts,
} from './owner-names.ts';
export type { NameOrder, OwnerKind, OwnerNameOptions, OwnerNameParts, OwnerOfRecord } from './owner-names.ts';
export {
  OWNER_SITUATIONS,
  OWNER_WORLD_PROPERTY_COLUMNS,
  generateOwnerWorld,
  ownerWorldPeopleNdjson,
  ownerWorldPropertyCsv,
} from './owner-world.ts';
export type {
  MailingTruth,
  OwnerSituation,
  OwnerWorld,
  OwnerWorldAddress,
  OwnerWorldOptions,
  OwnerWorldParcel,
  OwnerWorldPerson,
  OwnerWorldPhone,
  ParcelTruth,
  PersonTruth,
  RecordKind,
} from './owner-world.ts';
