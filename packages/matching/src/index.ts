/** @skiptrace/matching — pure functions: address standardisation, names, scoring, phones, demo data. */
export { addressKey, normalizeCity, standardizeAddress, unitKeyOf } from './address.ts';
export type { AddressInput, StandardAddress } from './address.ts';
export { normalizeState, normalizeZip } from './region.ts';
export type { Zip } from './region.ts';
export { parseStreetLine } from './street.ts';
export type { StreetParts } from './street.ts';
export { jaroWinkler } from './jaro-winkler.ts';
export { areNicknames, formalNamesFor, isKnownGivenName, nicknameTableSize, nicknamesOf } from './nickname.ts';
export { compareNames, nameScore, nameTokens, normalizePerson } from './names.ts';
export type { NameComparison, NameQuery, NameRecord, NormalizedPerson } from './names.ts';
export {
  MATCH_THRESHOLD,
  WEIGHTS,
  blockingKeys,
  buildMatchQuery,
  compareCandidate,
  contradicts,
  matchWeight,
  candidateKeys,
  rankCandidates,
  scoreCandidate,
  scoreCandidates,
} from './score.ts';
export type {
  BlockingKeys,
  CandidateRecord,
  CandidateScore,
  FieldLevels,
  MatchQuery,
  RankedCandidate,
} from './score.ts';
export {
  compareCity,
  compareFirst,
  compareLast,
  compareStreet,
  compareUnit,
  compareZip,
  fuzzyLevel,
  streetForms,
} from './compare.ts';
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
export { metaphone, soundAlike } from './phonetic.ts';
export { normalizePhone, phoneType } from './phones.ts';
export type { PhoneType } from './phones.ts';
export { CONTACT_COLUMNS, demoQueryFor, generateContacts } from './demo-data.ts';
export type { ContactRow, DemoQuery, GenerateOptions } from './demo-data.ts';
export { hashString, mulberry32 } from './prng.ts';
export { NICKNAME_GROUPS } from './tables/nicknames.ts';
export { SPANISH_NICKNAME_GROUPS } from './tables/nicknames-es.ts';
export { MODEL } from './tables/model.ts';
export { PUB28_C1, SUFFIX_BY_FORM, SUFFIX_NAME } from './tables/suffixes.ts';
export { DIRECTIONAL_BY_FORM, UNIT_BY_FORM } from './tables/units.ts';
export { STATE_NAMES } from './tables/states.ts';
export {
  NOISE_KINDS,
  STRESS_KINDS,
  RELIABILITY_BANDS,
  formatEvaluation,
  generatePopulation,
  generateQueries,
  gradeEvaluation,
  isAbsentKind,
  populationCsv,
} from './evaluation.ts';
export type {
  EvalKind,
  EvalPerson,
  EvalQuery,
  EvalReport,
  EvalResult,
  KindStats,
  NoiseKind,
  Population,
  StressKind,
} from './evaluation.ts';
export { generateStressPopulation, generateStressQueries } from './evaluation-stress.ts';
