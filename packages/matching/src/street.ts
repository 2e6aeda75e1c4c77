/**
 * Street-line parser: "123 n. Main Street Apt 5b" → number, directionals, name, suffix,
 * unit — in USPS Publication 28 form. Heuristic and table-driven (no ML, no libpostal:
 * see research/matching-anchors.md §1.1); the rules are listed in README.md.
 */
import { addressTokens } from './text.ts';
import { CARDINAL_WORDS, ORDINAL_WORDS, ordinalSuffix } from './tables/ordinals.ts';
import { SUFFIX_BY_FORM, SUFFIX_NAME } from './tables/suffixes.ts';
import { DIRECTIONAL_BY_FORM, DIRECTIONAL_WORD } from './tables/units.ts';
import { splitUnit } from './unit.ts';

export interface StreetParts {
  number: string;
  preDirectional: string | null;
  streetName: string;
  suffix: string | null;
  postDirectional: string | null;
  unitType: string | null;
  unitNumber: string | null;
}

/**
 * Suffixes that, when they are not the last word of the name, are part of the name and
 * are written out in full so "Ave B" = "Avenue B", "Mt Vernon" = "Mount Vernon",
 * "Hwy 101" = "Highway 101". ST is handled separately (leading ST = SAINT), and DR
 * (Doctor), VIA, CT and the like are left alone because they are ambiguous in names.
 */
const PRE_TYPES = new Set([
  'AVE',
  'HWY',
  'RTE',
  'RD',
  'FWY',
  'EXPY',
  'PKWY',
  'TPKE',
  'BLVD',
  'CTR',
  'MT',
  'FT',
  'PT',
  'LK',
]);
const NAME_WORDS: ReadonlyMap<string, string> = new Map([['CNTY', 'COUNTY']]);

const isDirectional = (token: string): boolean => DIRECTIONAL_BY_FORM.has(token);
const isSuffix = (token: string): boolean => SUFFIX_BY_FORM.has(token);

const NUMERIC_ORDINAL = /^(\d+)(ST|ND|RD|TH|D)$/;
const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** The shortest and longest of some words: a token of another length need not be looked up among them. */
function lengthsOf(words: Iterable<string>): { fits(token: string): boolean } {
  let min = Infinity;
  let max = 0;
  for (const word of words) {
    min = Math.min(min, word.length);
    max = Math.max(max, word.length);
  }
  return { fits: (token) => token.length >= min && token.length <= max };
}

/** The tens that take an ordinal after them (TWENTY FIRST), and the ordinal words. */
const TENS_WORDS = lengthsOf([...CARDINAL_WORDS].filter(([, n]) => n >= 20 && n % 10 === 0).map(([word]) => word));
const ORDINAL_WORDS_LENGTH = lengthsOf(ORDINAL_WORDS.keys());

/** Leading house number: digits (123, 123A, 123-125), grid (W24320) or words (ONE, TWENTY ONE). */
function takeNumber(tokens: string[]): { number: string; next: number } {
  const first = tokens[0];
  if (first === undefined) return { number: '', next: 0 };
  if (isDigit(first.charCodeAt(0)) || /^[NSEW]\d+[NSEW]?\d*$/.test(first)) {
    // (Each replace only where it can match: a hyphen, a leading zero.)
    let number = first.includes('-') ? first.replace(/-(?=[A-Z]+$)/, '') : first;
    if (number.charCodeAt(0) === 48) number = number.replace(/^0+(?=\d)/, '');
    let next = 1;
    const fraction = tokens[1];
    if (fraction !== undefined && isDigit(fraction.charCodeAt(0)) && /^\d+\/\d+$/.test(fraction)) {
      number += ` ${fraction}`;
      next = 2;
    }
    return { number, next };
  }
  const words = numberWords(tokens, 0);
  if (words !== null && tokens.length > words.consumed && !ORDINAL_WORDS.has(tokens[words.consumed] ?? '')) {
    return { number: String(words.value), next: words.consumed };
  }
  return { number: '', next: 0 };
}

/** "TWENTY ONE" / "TWENTY-ONE" / "FIVE" at `at` → value and tokens consumed. */
function numberWords(tokens: string[], at: number): { value: number; consumed: number } | null {
  const parts = (tokens[at] ?? '').split('-');
  const tens = CARDINAL_WORDS.get(parts[0] ?? '');
  if (tens === undefined) return null;
  if (parts.length === 2) {
    const unit = CARDINAL_WORDS.get(parts[1] ?? '');
    return unit !== undefined && tens >= 20 && unit < 10 ? { value: tens + unit, consumed: at + 1 } : null;
  }
  const unit = tens >= 20 ? CARDINAL_WORDS.get(tokens[at + 1] ?? '') : undefined;
  if (unit !== undefined && unit < 10) return { value: tens + unit, consumed: at + 2 };
  return { value: tens, consumed: at + 1 };
}

/** FIRST → 1ST, TWENTY FIRST / TWENTY-FIRST → 21ST, 2D → 2ND, 21TH → 21ST. */
function normalizeOrdinals(tokens: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    // (Only a token starting with a digit can be one; most are words.)
    const numeric = isDigit(token.charCodeAt(0)) ? NUMERIC_ORDINAL.exec(token) : null;
    if (numeric !== null) {
      out.push(ordinalSuffix(Number(numeric[1])));
      continue;
    }
    // The first two pieces of TWENTY-FIRST(-…), as split('-') gives them, without splitting a word that has no hyphen.
    const dash = token.indexOf('-');
    const head = dash === -1 ? token : token.slice(0, dash);
    const tens = TENS_WORDS.fits(head) ? CARDINAL_WORDS.get(head) : undefined;
    if (tens !== undefined && tens >= 20 && tens % 10 === 0) {
      const end = dash === -1 ? -1 : token.indexOf('-', dash + 1);
      const tail = dash === -1 ? undefined : token.slice(dash + 1, end === -1 ? undefined : end);
      const unit = ORDINAL_WORDS.get(tail ?? tokens[i + 1] ?? '');
      if (unit !== undefined && unit < 10) {
        out.push(ordinalSuffix(tens + unit));
        if (tail === undefined) i++;
        continue;
      }
    }
    const ordinal = ORDINAL_WORDS_LENGTH.fits(token) ? ORDINAL_WORDS.get(token) : undefined;
    out.push(ordinal === undefined ? token : ordinalSuffix(ordinal));
  }
  return out;
}

function normalizeNameTokens(name: string[]): string {
  if (name.length === 1) {
    const only = name[0] as string;
    const direction = DIRECTIONAL_BY_FORM.get(only);
    return direction === undefined ? only : (DIRECTIONAL_WORD.get(direction) as string);
  }
  return name
    .map((token, i) => {
      if (i === 0 && (token === 'ST' || token === 'SAINT')) return 'SAINT';
      if (token === 'CO' && (name[i + 1] === 'RD' || name[i + 1] === 'ROAD')) return 'COUNTY';
      const word = NAME_WORDS.get(token);
      if (word !== undefined) return word;
      const standard = i < name.length - 1 ? SUFFIX_BY_FORM.get(token) : undefined;
      return standard !== undefined && PRE_TYPES.has(standard) ? (SUFFIX_NAME.get(standard) as string) : token;
    })
    .join(' ');
}

/** Parses one street line (number, street, optional unit) into Pub 28 components. */
export function parseStreetLine(streetAddress: string): StreetParts {
  const tokens = addressTokens(streetAddress);
  const { number, next } = takeNumber(tokens);
  const { street, unitType, unitNumber } = splitUnit(tokens.slice(next));
  const rest = normalizeOrdinals(street);
  // The name is rest[from, to) once the directionals and the suffix are taken off its ends
  // (one lookup a word, and no copy of the words but the name's).
  let from = 0;
  let to = rest.length;
  let postDirectional: string | null = null;
  if (to >= 2) {
    const post = DIRECTIONAL_BY_FORM.get(rest[to - 1] as string);
    const before = rest[0] as string;
    if (post !== undefined && (to > 2 || !(isSuffix(before) || isDirectional(before)))) {
      postDirectional = post;
      to--;
    }
  }
  let suffix: string | null = null;
  if (to >= 2) {
    suffix = SUFFIX_BY_FORM.get(rest[to - 1] as string) ?? null;
    if (suffix !== null) to--;
  }
  let preDirectional: string | null = null;
  if (to - from >= 2) {
    preDirectional = DIRECTIONAL_BY_FORM.get(rest[from] as string) ?? null;
    if (preDirectional !== null) from++;
  }
  return {
    number,
    preDirectional,
    streetName: normalizeNameTokens(from === 0 && to === rest.length ? rest : rest.slice(from, to)),
    suffix,
    postDirectional,
    unitType,
    unitNumber,
  };
}
