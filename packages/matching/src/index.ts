/** @skiptrace/matching — pure functions: address standardisation, names, scoring, phones. */
export {
  addressKey,
  ADDRESS_MEMO_LIMIT,
  BoundedMemo,
  createAddressStandardizer,
  memoized,
  normalizeCity,
  standardizeAddress,
} from './address.ts';
export type { AddressInput, StandardAddress } from './address.ts';
export { normalizeState, normalizeZip } from './region.ts';
export type { Zip } from './region.ts';
export { parseStreetLine } from './street.ts';
export type { StreetParts } from './street.ts';
export { jaroWinkler } from './jaro-winkler.ts';
export { areNicknames, formalNamesFor, isKnownGivenName, nicknamesOf } from './nickname.ts';
export { compareNames, nameScore, nameTokens, normalizePerson } from './names.ts';
export type { NameComparison, NameQuery, NameRecord } from './names.ts';
export type { NormalizedPerson } from './person.ts';
export {
  MATCH_THRESHOLD,
  blockingKeys,
  buildMatchQuery,
  compareCandidate,
  contradicts,
  candidateKeys,
  rankCandidates,
  scoreCandidate,
  candidatePerson,
} from './score.ts';
export type {
  BlockingKeys,
  CandidateRecord,
  CandidateScore,
  FieldLevels,
  MatchQuery,
  RankedCandidate,
} from './score.ts';
export type {
  CityLevel,
  FirstLevel,
  FuzzyLevel,
  LastLevel,
  StreetLevel,
  SwapLevel,
  UnitLevel,
  ZipLevel,
} from './compare.ts';
export { editDistance } from './edit-distance.ts';
export { foldAscii } from './text.ts';
export { normalizePhone, phoneType } from './phones.ts';
export type { PhoneType } from './phones.ts';
export { NICKNAME_GROUPS } from './tables/nicknames.ts';
export { MODEL } from './tables/model.ts';
export { PUB28_C1, SUFFIX_BY_FORM, SUFFIX_NAME } from './tables/suffixes.ts';
export { DIRECTIONAL_BY_FORM, DIRECTIONAL_WORD, UNIT_BY_FORM } from './tables/units.ts';
export { CARDINAL_WORDS, ORDINAL_WORDS } from './tables/ordinals.ts';
export { STATE_NAMES } from './tables/states.ts';
