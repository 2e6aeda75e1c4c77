/**
 * Person-name normalisation (accents, punctuation, titles, generational suffixes,
 * organisations) and the name comparison built on compare.ts.
 */
import { compareFirst, compareLast, swappedLevel } from './compare.ts';
import type { FirstLevel, LastLevel, SwapLevel } from './compare.ts';
import type { NormalizedPerson } from './person.ts';
import { foldAscii } from './text.ts';

export interface NameQuery {
  first?: string | null;
  last?: string | null;
}

export interface NameRecord {
  first: string | null;
  last: string | null;
}

export interface NameComparison {
  first: FirstLevel;
  last: LastLevel;
  /** First and last name given the other way round (exactly or with a typo), else null. */
  swapped: SwapLevel | null;
  /** `name_swapped`, `name_absent`, `name_entity`, or `last_name_<level>` and `first_name_<level>`. */
  reasons: string[];
}

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
  return personFromTokens(nameTokens(first), nameTokens(last));
}

/** A person from names already split by nameTokens (e.g. stored at import). */
export function personFromTokens(first: string[], last: string[]): NormalizedPerson {
  let entity = false;
  for (const token of first) if (ENTITY_WORDS.has(token)) entity = true;
  for (const token of last) if (ENTITY_WORDS.has(token)) entity = true;
  return { first, last, lastCompact: last.join(''), entity };
}

/** Compares two normalised names field by field (compare.ts has the levels). */
export function compareNames(query: NormalizedPerson, record: NormalizedPerson): NameComparison {
  if (query.entity) return { first: 'absent', last: 'absent', swapped: null, reasons: ['name_entity'] };
  const first = compareFirst(query, record);
  const last = compareLast(query, record);
  if (first === 'different' || last === 'different') {
    const swapped = swappedLevel(query, record);
    if (swapped !== null) return { first, last, swapped, reasons: ['name_swapped'] };
  }
  if (first === 'absent' && last === 'absent') return { first, last, swapped: null, reasons: ['name_absent'] };
  return { first, last, swapped: null, reasons: [`last_name_${last}`, `first_name_${first}`] };
}

/** compareNames on raw strings (normalises both sides first). */
export function nameScore(query: NameQuery, candidate: NameRecord): NameComparison {
  return compareNames(normalizePerson(query.first, query.last), normalizePerson(candidate.first, candidate.last));
}
