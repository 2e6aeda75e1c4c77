/** @skiptrace/matching — pure functions: address standardisation, names, scoring, phones, demo data. */
export { addressKey, normalizeCity, standardizeAddress, unitKeyOf } from './address.ts';
export type { AddressInput, StandardAddress } from './address.ts';
export { normalizeState, normalizeZip } from './region.ts';
export type { Zip } from './region.ts';
export { parseStreetLine } from './street.ts';
export type { StreetParts } from './street.ts';
export { jaroWinkler } from './jaro-winkler.ts';
export { areNicknames, formalNamesFor, nicknamesOf } from './nickname.ts';
export {
  FIRST_NAME_TYPO_JW,
  LAST_NAME_TYPO_JW,
  compareNames,
  nameScore,
  nameTokens,
  normalizePerson,
} from './names.ts';
export type { FieldLevel, NameQuery, NameRecord, NameScore, NormalizedPerson } from './names.ts';
export { MATCH_THRESHOLD, WEIGHTS, buildMatchQuery, candidateKeys, rankCandidates, scoreCandidate } from './score.ts';
export type { CandidateRecord, CandidateScore, MatchQuery, RankedCandidate } from './score.ts';
export { normalizePhone, phoneType } from './phones.ts';
export type { PhoneType } from './phones.ts';
export { CONTACT_COLUMNS, demoQueryFor, generateContacts } from './demo-data.ts';
export type { ContactRow, DemoQuery, GenerateOptions } from './demo-data.ts';
export { hashString, mulberry32 } from './prng.ts';
export { NICKNAME_GROUPS } from './tables/nicknames.ts';
export { PUB28_C1, SUFFIX_BY_FORM, SUFFIX_NAME } from './tables/suffixes.ts';
export { DIRECTIONAL_BY_FORM, UNIT_BY_FORM } from './tables/units.ts';
export { STATE_NAMES } from './tables/states.ts';
