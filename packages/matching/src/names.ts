/**
 * Person-name normalisation and comparison: accents, punctuation, generational suffixes,
 * compound surnames, nicknames (one hop), initials and Jaro–Winkler typos.
 */
import { jaroWinkler } from './jaro-winkler.ts';
import { areNicknames } from './nickname.ts';
import { foldAscii } from './text.ts';

export interface NameQuery {
  first?: string | null;
  last?: string | null;
}

export interface NameRecord {
  first: string | null;
  last: string | null;
}

/** How one name field compared. 'absent' = missing on either side (no evidence). */
export type FieldLevel = 'exact' | 'nickname' | 'initial' | 'typo' | 'compound' | 'swapped' | 'mismatch' | 'absent';

export interface NameScore {
  /** 0..1: weighted mean of the present fields' level values (0 when no field compares). */
  score: number;
  reasons: string[];
  first: FieldLevel;
  last: FieldLevel;
}

export interface NormalizedPerson {
  first: string[];
  last: string[];
  /** Last name with spaces removed: "DE LA CRUZ" → "DELACRUZ", "MC DONALD" → "MCDONALD". */
  lastCompact: string;
  /** An organisation (LLC, TRUST …) rather than a person; person matching is skipped. */
  entity: boolean;
}

/** Jaro–Winkler thresholds for a typo (Splink's upper comparison levels are 0.92 / 0.88). */
export const FIRST_NAME_TYPO_JW = 0.9;
export const LAST_NAME_TYPO_JW = 0.92;

/** Per-level contribution to `NameScore.score`; score.ts uses its own additive weights. */
const LEVEL_VALUE: Record<FieldLevel, number> = {
  exact: 1,
  nickname: 0.9,
  compound: 0.85,
  swapped: 0.8,
  typo: 0.75,
  initial: 0.6,
  mismatch: 0,
  absent: 0,
};

const SUFFIXES = new Set(['JR', 'SR', 'II', 'III', 'IV', 'V', '2ND', '3RD', 'ESQ', 'MD', 'PHD', 'DDS']);
const TITLES = new Set(['MR', 'MRS', 'MS', 'MISS', 'DR', 'REV']);
const ENTITY_WORDS = new Set([
  'LLC',
  'INC',
  'CORP',
  'CORPORATION',
  'CO',
  'COMPANY',
  'LTD',
  'LP',
  'LLP',
  'TRUST',
  'TRUSTEE',
  'TRUSTEES',
  'ESTATE',
  'BANK',
  'ASSOCIATION',
  'ASSN',
  'HOLDINGS',
  'PROPERTIES',
  'PARTNERS',
  'PARTNERSHIP',
  'CHURCH',
  'FUND',
]);

/** Upper-case ASCII words; apostrophes and periods join ("O'Brien" → OBRIEN, "J." → J). */
export function nameTokens(input: string | null | undefined): string[] {
  if (input == null || input === '') return [];
  const words = foldAscii(input)
    .replace(/['\u2019`.]/g, '')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
  if (words === '') return [];
  const tokens = words.split(' ');
  while (tokens.length > 1 && TITLES.has(tokens[0] as string)) tokens.shift();
  return tokens.filter((token, i) => i === 0 || !SUFFIXES.has(token));
}

/** Normalises a query or record name once, so ranking many candidates stays cheap. */
export function normalizePerson(first: string | null | undefined, last: string | null | undefined): NormalizedPerson {
  const firstTokens = nameTokens(first);
  const lastTokens = nameTokens(last);
  const entity = [...firstTokens, ...lastTokens].some((token) => ENTITY_WORDS.has(token));
  return { first: firstTokens, last: lastTokens, lastCompact: lastTokens.join(''), entity };
}

function compareLast(query: NormalizedPerson, record: NormalizedPerson): FieldLevel {
  if (query.lastCompact === '' || record.lastCompact === '') return 'absent';
  if (query.lastCompact === record.lastCompact) return 'exact';
  if (query.last.length > 1 || record.last.length > 1) {
    for (const token of query.last) if (token.length > 1 && record.last.includes(token)) return 'compound';
  }
  return jaroWinkler(query.lastCompact, record.lastCompact) >= LAST_NAME_TYPO_JW ? 'typo' : 'mismatch';
}

function compareGiven(a: string, b: string): FieldLevel {
  if (a === b) return 'exact';
  if (a.length === 1 || b.length === 1) return a[0] === b[0] ? 'initial' : 'mismatch';
  if (areNicknames(a, b)) return 'nickname';
  return jaroWinkler(a, b) >= FIRST_NAME_TYPO_JW ? 'typo' : 'mismatch';
}

/** Best level over the first two given-name words on each side ("J Robert" vs "Robert"). */
function compareFirst(query: NormalizedPerson, record: NormalizedPerson): FieldLevel {
  if (query.first.length === 0 || record.first.length === 0) return 'absent';
  let best: FieldLevel = 'mismatch';
  for (const a of query.first.slice(0, 2)) {
    for (const b of record.first.slice(0, 2)) {
      const level = compareGiven(a, b);
      if (LEVEL_VALUE[level] > LEVEL_VALUE[best]) best = level;
    }
  }
  return best;
}

/** Compares two normalised names; see `nameScore` for the meaning of the result. */
export function compareNames(query: NormalizedPerson, record: NormalizedPerson): NameScore {
  if (query.entity) return { score: 0, reasons: ['name_entity'], first: 'absent', last: 'absent' };
  let first = compareFirst(query, record);
  let last = compareLast(query, record);
  const reasons: string[] = [];
  if (first === 'mismatch' && last === 'mismatch' && isSwapped(query, record)) {
    first = 'swapped';
    last = 'swapped';
    reasons.push('name_swapped');
  } else if (first === 'absent' && last === 'absent') {
    reasons.push('name_absent');
  } else {
    reasons.push(`last_name_${last}`, `first_name_${first}`);
  }
  let weight = 0;
  let total = 0;
  if (last !== 'absent') {
    weight += 0.55;
    total += 0.55 * LEVEL_VALUE[last];
  }
  if (first !== 'absent') {
    weight += 0.45;
    total += 0.45 * LEVEL_VALUE[first];
  }
  return { score: weight === 0 ? 0 : Math.round((total / weight) * 1000) / 1000, reasons, first, last };
}

function isSwapped(query: NormalizedPerson, record: NormalizedPerson): boolean {
  const queryFirst = query.first.join('');
  const recordFirst = record.first.join('');
  return queryFirst === record.lastCompact && query.lastCompact === recordFirst;
}

/**
 * Scores how well a candidate's name matches the queried name, 0..1, with reasons such as
 * `last_name_exact`, `first_name_nickname`, `first_name_typo`, `first_name_initial`,
 * `first_name_absent`, `name_absent`, `name_swapped`, `name_entity`.
 */
export function nameScore(query: NameQuery, candidate: NameRecord): NameScore {
  return compareNames(normalizePerson(query.first, query.last), normalizePerson(candidate.first, candidate.last));
}
