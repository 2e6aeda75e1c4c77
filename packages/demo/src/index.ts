/**
 * @skiptrace/demo — generated, deterministic data for the demo, the evaluations, the
 * benchmarks and tests: contacts (people with addresses and phones) and the queries a list
 * would send for them, and an owner world (people followed over twenty years, and a county
 * roll with the truth per parcel). No domain package depends on it.
 */
export { CONTACT_COLUMNS, generateContacts } from './contacts.ts';
export type { ContactRow } from './contacts.ts';
export { demoQueryFor } from './queries.ts';
export type { DemoQuery } from './queries.ts';
export { OWNER_SITUATIONS, generateOwnerWorld, ownerWorldPeopleNdjson, ownerWorldPropertyCsv } from './owner-world.ts';
export type { OwnerSituation, OwnerWorld, OwnerWorldParcel, OwnerWorldPerson, ParcelTruth } from './owner-world.ts';
export { mulberry32 } from './prng.ts';
export type { Random } from './prng.ts';
export {
  DEMO_DNC_PER_MILLE,
  DEMO_LITIGATOR_PER_MILLE,
  demoSuppressionLists,
  demoSuppressionOf,
} from './suppression.ts';
export type { DemoSuppressionKind } from './suppression.ts';
