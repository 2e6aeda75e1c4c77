/**
 * Field comparisons with agreement levels (docs/matching.md): each compares one field of
 * a query with the same field of a stored record and says how well they agree, from
 * exact down to different. score.ts turns each level into a Fellegi–Sunter weight.
 *
 * Typos are measured as edit distance (optimal string alignment: a swap of two adjacent
 * letters is one edit) scaled by length: one edit counts from 3 letters, two from 5; and
 * as Double Metaphone agreement ("sounds alike").
 */
import { editDistance } from './edit-distance.ts';
import { areNicknames, isKnownGivenName } from './nickname.ts';
import type { NormalizedPerson } from './person.ts';
import { sharedCode } from './phonetic.ts';
import type { StreetParts } from './street.ts';
import { SUFFIX_NAME } from './tables/suffixes.ts';
import { DIRECTIONAL_WORD } from './tables/units.ts';

export type FuzzyLevel = 'typo1' | 'phonetic' | 'typo2' | 'different';
export type FirstLevel = 'exact' | 'nickname' | 'initial' | FuzzyLevel | 'absent';
export type LastLevel = 'exact' | 'compound' | FuzzyLevel | 'absent';
export type StreetLevel = 'exact' | 'name_exact' | FuzzyLevel;
export type ZipLevel = 'exact' | 'one_digit' | 'different';
export type CityLevel = 'exact' | 'close' | 'different' | 'absent';
export type UnitLevel = 'none' | 'exact' | 'query_only' | 'record_only' | 'different';

/** Levels best first; used to keep the best level over several ways of comparing. */
const FIRST_ORDER: readonly FirstLevel[] = [
  'exact',
  'nickname',
  'typo1',
  'phonetic',
  'initial',
  'typo2',
  'different',
  'absent',
];
const FUZZY_ORDER: readonly FuzzyLevel[] = ['typo1', 'phonetic', 'typo2', 'different'];

/** Fewest letters of the shorter word for one edit, and for two edits, to count as a typo. */
const ONE_EDIT_MIN = 3;
const TWO_EDITS_MIN = 5;
const LONG_THREE_EDITS_MIN = 10;

/**
 * How close two words are, when they are not equal. A short word (2–4 letters) counts
 * as a typo only when it keeps the first letter, so "An" ↔ "Ann" and "Die" ↔ "Diane"
 * are typos but "Al" ↔ "Ed" is not.
 */
export function fuzzyLevel(a: string, b: string, maxEdits = 2): FuzzyLevel {
  const shorter = Math.min(a.length, b.length);
  const sameStart = a.charCodeAt(0) === b.charCodeAt(0);
  if (shorter < ONE_EDIT_MIN && !(shorter === 2 && sameStart)) return 'different';
  const distance = editDistance(a, b, maxEdits);
  if (distance <= 1 && (shorter >= ONE_EDIT_MIN || b.length + a.length <= 5)) return 'typo1';
  if (shorter < ONE_EDIT_MIN) return 'different';
  // Sounding alike counts when the words start alike or share a code of 3+ sounds: a
  // 2-sound code shared through an alternate reading ("JN"/"AN": John and Ana) is chance.
  const code = sharedCode(a, b);
  if (code !== '' && (sameStart || code.length >= 3)) return 'phonetic';
  if (distance === 2 && (shorter >= TWO_EDITS_MIN || sameStart)) return 'typo2';
  // Long strings (street names run together with their suffix): three edits from 10 letters.
  if (distance === 3 && shorter >= LONG_THREE_EDITS_MIN) return 'typo2';
  return 'different';
}

function betterFuzzy(a: FuzzyLevel, b: FuzzyLevel): FuzzyLevel {
  return FUZZY_ORDER.indexOf(a) <= FUZZY_ORDER.indexOf(b) ? a : b;
}

/**
 * Two given names. Two edits apart, two different known given names ("Maria" and "Carla",
 * "Adam" and "Alan", "Miguel" and "Manuel") are two people: a typing error rarely turns a
 * name into another real one, a relative not on file often has one. One edit apart they stay
 * a typo (spellings of one name: "Jon"/"John", "Sara"/"Sarah"), and so do names that sound alike.
 */
function compareGiven(a: string, b: string): FirstLevel {
  if (a === b) return 'exact';
  if (a.length === 1 || b.length === 1) return a[0] === b[0] ? 'initial' : 'different';
  if (areNicknames(a, b)) return 'nickname';
  const level = fuzzyLevel(a, b);
  return level === 'typo2' && isKnownGivenName(a) && isKnownGivenName(b) ? 'different' : level;
}

/**
 * First name: the best level over the first two words on each side (a middle name or
 * initial written inside the first-name field, "John A" or "J Robert"), and over the
 * words run together ("Mary Ann" ↔ "Maryann").
 */
export function compareFirst(query: NormalizedPerson, record: NormalizedPerson): FirstLevel {
  if (query.first.length === 0 || record.first.length === 0) return 'absent';
  let best = FIRST_ORDER.length - 1;
  for (const a of query.first.slice(0, 2)) {
    for (const b of record.first.slice(0, 2)) {
      const level = FIRST_ORDER.indexOf(compareGiven(a, b));
      if (level < best) best = level;
      if (best === 0) return 'exact';
    }
  }
  if (query.first.length > 1 || record.first.length > 1) {
    const level = FIRST_ORDER.indexOf(compareGiven(query.first.join(''), record.first.join('')));
    if (level < best) best = level;
  }
  return FIRST_ORDER[best] as FirstLevel;
}

/**
 * Last name: equal once spaces and hyphens are gone ("Hart Carrion" = "Hart-Carrion" =
 * "Hartcarrion"); one part of a compound surname ("Hart" ↔ "Hart Carrion", also when
 * written joined); otherwise a typo or phonetic level of the whole or of one part.
 */
export function compareLast(query: NormalizedPerson, record: NormalizedPerson): LastLevel {
  const a = query.lastCompact;
  const b = record.lastCompact;
  if (a === '' || b === '') return 'absent';
  if (a === b) return 'exact';
  if (query.last.length > 1 || record.last.length > 1) {
    for (const token of query.last) if (token.length > 1 && record.last.includes(token)) return 'compound';
  }
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  if (shorter.length >= 4 && (longer.startsWith(shorter) || longer.endsWith(shorter))) {
    // "Hart" inside "Hartcarrion": only when the rest is itself a plausible surname part.
    if (longer.length - shorter.length >= 4) return 'compound';
  }
  let best = fuzzyLevel(a, b);
  if (best !== 'typo1' && (query.last.length > 1 || record.last.length > 1)) {
    for (const x of query.last)
      for (const y of record.last) if (x.length > 3) best = betterFuzzy(best, fuzzyLevel(x, y));
  }
  return best;
}

export type SwapLevel = 'exact' | 'typo';

/** First and last name written the other way round: exactly, or with one typo on a side; null when not. */
export function swappedLevel(query: NormalizedPerson, record: NormalizedPerson): SwapLevel | null {
  if (query.first.length === 0 || record.first.length === 0) return null;
  if (isSwapped(query, record, (x, y) => x === y)) return 'exact';
  if (isSwapped(query, record, (x, y) => x === y || (x.length > 3 && editDistance(x, y, 1) <= 1))) return 'typo';
  return null;
}

function isSwapped(
  query: NormalizedPerson,
  record: NormalizedPerson,
  close: (x: string, y: string) => boolean,
): boolean {
  const queryFirst = query.first.join('');
  const recordFirst = record.first[0] as string;
  const queryFirstWord = query.first[0] as string;
  return (
    (close(queryFirst, record.lastCompact) || close(queryFirstWord, record.lastCompact)) &&
    (close(query.lastCompact, recordFirst) || close(query.lastCompact, record.first.join('')))
  );
}

/** Street-name forms compared across the suffix (see compareStreet). */
export interface StreetForms {
  /** PREDIR NAME SUFFIX POSTDIR. */
  street: string;
  preDirectional: string | null;
  postDirectional: string | null;
  /** Name with spaces removed. */
  name: string;
  /** Name and suffix abbreviation run together ("MECHANICST"); name when no suffix. */
  nameSuffix: string;
  /** Name and suffix word run together ("MECHANICSTREET"). */
  nameSuffixWord: string;
  /** The name's words sorted (token order). */
  sortedWords: string;
  /** Pre-directional written out and run into the name ("W MINSTER" → "WESTMINSTER"). */
  directionName: string;
  /** When there is no suffix and several words: the name without its last word, and that word (a misspelt suffix?). */
  head: string;
  tail: string;
  /** The suffix abbreviation and word ("" when none). */
  suffix: string;
  suffixWord: string;
}

export function streetForms(parts: StreetParts, street: string): StreetForms {
  const words = parts.streetName.split(' ');
  const name = words.join('');
  const suffix = parts.suffix ?? '';
  const pre = parts.preDirectional === null ? '' : (DIRECTIONAL_WORD.get(parts.preDirectional) ?? '');
  const split = suffix === '' && words.length > 1;
  return {
    directionName: pre + name,
    head: split ? words.slice(0, -1).join('') : '',
    tail: split ? (words[words.length - 1] as string) : '',
    suffix,
    suffixWord: suffix === '' ? '' : (SUFFIX_NAME.get(suffix) ?? suffix),
    street,
    preDirectional: parts.preDirectional,
    postDirectional: parts.postDirectional,
    name,
    nameSuffix: name + suffix,
    nameSuffixWord: name + (suffix === '' ? '' : (SUFFIX_NAME.get(suffix) ?? suffix)),
    sortedWords: words.length > 1 ? [...words].sort().join('') : name,
  };
}

/** `longer` read as `shorter` plus a (misspelt) suffix of at most 7 letters. */
function prefixLevel(shorter: string, longer: string): FuzzyLevel {
  const rest = longer.length - shorter.length;
  if (rest <= 0 || rest > 7 || shorter.length < 4) return 'different';
  const head = longer.slice(0, shorter.length);
  if (head === shorter) return 'typo1';
  return fuzzyLevel(head, shorter) === 'typo1' ? 'typo2' : 'different';
}

/**
 * Street: exact; the same name with a different, missing or glued-on suffix
 * ("Mechanic St" ↔ "Mechanic" ↔ "Mechanicst") or its words split, joined or reordered;
 * otherwise the best typo/phonetic level over those forms, including a misspelt name
 * followed by a misspelt suffix ("Clearwatar Dve" ↔ "Clearwater Dr"). Opposite
 * directionals (N Main ↔ S Main) are different streets.
 */
export function compareStreet(query: StreetForms, record: StreetForms): StreetLevel {
  if (query.street === record.street) return 'exact';
  if (
    (query.preDirectional !== null &&
      record.preDirectional !== null &&
      query.preDirectional !== record.preDirectional) ||
    (query.postDirectional !== null &&
      record.postDirectional !== null &&
      query.postDirectional !== record.postDirectional)
  ) {
    return 'different';
  }
  const a = query.name;
  const b = record.name;
  if (
    a === b ||
    query.sortedWords === record.sortedWords ||
    a === record.nameSuffix ||
    a === record.nameSuffixWord ||
    b === query.nameSuffix ||
    b === query.nameSuffixWord ||
    query.directionName === b ||
    a === record.directionName
  ) {
    return 'name_exact';
  }
  let best = fuzzyLevel(a, b, 3);
  if (best === 'typo1') return best;
  best = betterFuzzy(best, fuzzyLevel(query.nameSuffix, record.nameSuffix, 3));
  best = betterFuzzy(best, fuzzyLevel(a, record.nameSuffix, 3));
  best = betterFuzzy(best, fuzzyLevel(a, record.nameSuffixWord, 3));
  // A misspelt suffix left in the name ("Meaow Rdde" ↔ "Meadow Rd"): the name without its
  // last word against the record's name, when that word is close to the record's suffix.
  if (query.head !== '' && record.suffix !== '') {
    const tail = query.tail;
    if (editDistance(tail, record.suffix, 2) <= 2 || editDistance(tail, record.suffixWord, 2) <= 2) {
      const level = query.head === b ? 'typo1' : fuzzyLevel(query.head, b);
      best = betterFuzzy(best, level);
    }
  }
  best = betterFuzzy(best, a.length > b.length ? prefixLevel(b, a) : prefixLevel(a, b));
  if (a.length > record.nameSuffix.length) best = betterFuzzy(best, prefixLevel(record.nameSuffix, a));
  return best;
}

/** ZIP5: equal, one digit changed or two neighbours swapped, or different. */
export function compareZip(query: string, record: string): ZipLevel {
  if (query === record) return 'exact';
  if (query.length !== record.length) return 'different';
  let diff = 0;
  let first = -1;
  for (let i = 0; i < query.length; i++) {
    if (query[i] !== record[i]) {
      if (first === -1) first = i;
      diff++;
    }
  }
  if (diff === 1) return 'one_digit';
  if (diff === 2 && query[first] === record[first + 1] && query[first + 1] === record[first]) return 'one_digit';
  return 'different';
}

export function compareCity(query: string, record: string | null | undefined): CityLevel {
  if (query === '' || record == null || record === '') return 'absent';
  if (query === record) return 'exact';
  const a = query.replace(/ /g, '');
  const b = record.replace(/ /g, '');
  if (a === b || a.startsWith(b) || b.startsWith(a)) return 'close';
  return fuzzyLevel(a, b) === 'different' ? 'different' : 'close';
}

/** Units as unitKeyOf leaves them ('' when none). */
export function compareUnit(query: string, record: string): UnitLevel {
  if (query === '' && record === '') return 'none';
  if (query === record) return 'exact';
  if (record === '') return 'query_only';
  if (query === '') return 'record_only';
  return 'different';
}
