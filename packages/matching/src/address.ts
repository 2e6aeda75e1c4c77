/**
 * Address standardisation to USPS Publication 28 form and the matching keys.
 *
 * Key format (see README.md):
 *   key     = NUMBER|STREET|ZIP5        e.g. "123|N MAIN ST|90210"
 *   unitKey = NUMBER|STREET|ZIP5|UNIT   e.g. "123|N MAIN ST|90210|5B"  ("…|" when no unit)
 * STREET is PREDIR NAME SUFFIX POSTDIR (no unit). The unit type is left out of unitKey
 * because "Apt 5", "Unit 5" and "#5" name the same door far more often than not.
 */
import { normalizeState, normalizeZip } from './region.ts';
import type { Zip } from './region.ts';
import { parseStreetLine } from './street.ts';
import type { StreetParts } from './street.ts';
import { cleanWords } from './text.ts';

export interface AddressInput {
  street_address: string;
  city?: string | null;
  state?: string | null;
  zip_code?: string | number | null;
}

export interface StandardAddress extends StreetParts {
  /** Full standardised delivery line: "123 N MAIN ST NW APT 5B". */
  line: string;
  /** PREDIR NAME SUFFIX POSTDIR: "N MAIN ST NW". */
  street: string;
  /** Upper case, leading ST/MT/FT written out (ST LOUIS → SAINT LOUIS). */
  city: string;
  /** USPS two-letter code, or null when missing/unrecognised. */
  state: string | null;
  zip5: string | null;
  zip4: string | null;
  /** NUMBER|STREET|ZIP5 — household-level matching key. */
  key: string;
  /** NUMBER|STREET|ZIP5|UNIT — dwelling-level key (see `unitKeyOf`). */
  unitKey: string;
}

const CITY_PREFIXES: ReadonlyMap<string, string> = new Map([
  ['ST', 'SAINT'],
  ['STE', 'SAINTE'],
  ['MT', 'MOUNT'],
  ['FT', 'FORT'],
]);

/** City in upper case with "St./Mt./Ft." written out, as USPS city names are. */
export function normalizeCity(input: string | null | undefined): string {
  const words = cleanWords(input).split(' ');
  const first = CITY_PREFIXES.get(words[0] ?? '');
  if (first !== undefined && words.length > 1) words[0] = first;
  return words.join(' ');
}

/** Builds NUMBER|STREET|ZIP5 from parts; exported so stored rows can be keyed identically. */
export function addressKey(number: string, street: string, zip5: string | null): string {
  return `${number}|${street}|${zip5 ?? ''}`;
}

/**
 * Extends an address key with the unit: its number with spaces removed, or — for a
 * designator that takes no number (REAR, PH, BSMT) — the designator; "" when none.
 */
export function unitKeyOf(key: string, unitType: string | null, unitNumber: string | null): string {
  const unit =
    unitNumber !== null ? unitNumber.replace(/ /g, '') : unitType !== null && unitType !== '#' ? unitType : '';
  return `${key}|${unit}`;
}

/** Standardises a US address given as separate street/city/state/ZIP fields. */
export function standardizeAddress(input: AddressInput): StandardAddress {
  const parts = parseStreetLine(input.street_address ?? '');
  const street = streetOf(parts);
  const zip = normalizeZip(input.zip_code);
  return standardAddress(
    parts,
    street,
    lineOf(parts, street),
    normalizeCity(input.city),
    normalizeState(input.state),
    zip,
  );
}

/** PREDIR NAME SUFFIX POSTDIR of parsed street parts. */
function streetOf(parts: StreetParts): string {
  return joinWords([parts.preDirectional, parts.streetName, parts.suffix, parts.postDirectional]);
}

/** The delivery line: number, street, unit. */
function lineOf(parts: StreetParts, street: string): string {
  return joinWords([parts.number, street, parts.unitType, parts.unitNumber]);
}

/**
 * The standardised address of its parts. One object literal of a fixed shape (the parts'
 * fields first, as a spread of them would put them): a spread and then ten more fields
 * made V8 grow the object's property store on every address.
 */
function standardAddress(
  parts: StreetParts,
  street: string,
  line: string,
  city: string,
  state: string | null,
  zip: Zip | null,
): StandardAddress {
  const zip5 = zip?.zip5 ?? null;
  const key = addressKey(parts.number, street, zip5);
  return {
    number: parts.number,
    preDirectional: parts.preDirectional,
    streetName: parts.streetName,
    suffix: parts.suffix,
    postDirectional: parts.postDirectional,
    unitType: parts.unitType,
    unitNumber: parts.unitNumber,
    line,
    street,
    city,
    state,
    zip5,
    zip4: zip?.zip4 ?? null,
    key,
    unitKey: unitKeyOf(key, parts.unitType, parts.unitNumber),
  };
}

function joinWords(words: readonly (string | null)[]): string {
  let out = '';
  for (const word of words) {
    if (word === null || word === '') continue;
    out = out === '' ? word : `${out} ${word}`;
  }
  return out;
}

/**
 * A cache of at most about `2 × limit` entries: the newer half is filled until full, then
 * becomes the older half and a new one starts; a hit in the older half moves forward. So
 * values in use stay and an input of only distinct values costs bounded memory.
 */
export class BoundedMemo<V> {
  private newer = new Map<string, V>();
  private older = new Map<string, V>();
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get(key: string): V | undefined {
    const hit = this.newer.get(key);
    if (hit !== undefined) return hit;
    const old = this.older.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: string, value: V): void {
    if (this.newer.size >= this.limit) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(key, value);
  }
}

/** `normalize(value)`, remembered in `memo` when the value is a string (the memo's key). */
export function memoized<I, V>(memo: BoundedMemo<V>, value: I, normalize: (value: I) => V): V {
  if (typeof value !== 'string') return normalize(value);
  let out = memo.get(value);
  if (out === undefined) {
    out = normalize(value);
    memo.set(value, out);
  }
  return out;
}

/** Distinct values each field memo of createAddressStandardizer keeps (about twice this at most). */
export const ADDRESS_MEMO_LIMIT = 50_000;

/**
 * `standardizeAddress` for bulk work (imports): the same result for the same input, with
 * each field's normal form computed once per distinct value — a file repeats its cities,
 * states and ZIP codes on most rows and a street line on every row of a household. The
 * street parts are copied into each result as standardizeAddress does, so results share
 * nothing mutable with the memo. Memory is bounded (BoundedMemo).
 */
export function createAddressStandardizer(
  limit = ADDRESS_MEMO_LIMIT,
  /** Street lines remembered (0: none, for a caller that remembers whole addresses itself). */
  streetLimit = limit,
): (input: AddressInput) => StandardAddress {
  const streets = new BoundedMemo<{ parts: StreetParts; street: string; line: string }>(streetLimit);
  const cities = new BoundedMemo<string>(limit);
  const states = new BoundedMemo<string | null>(limit);
  const zips = new BoundedMemo<Zip | null>(limit);
  return (input) => {
    const raw = input.street_address ?? '';
    let parsed = streetLimit > 0 ? streets.get(raw) : undefined;
    if (parsed === undefined) {
      const parts = parseStreetLine(raw);
      const street = streetOf(parts);
      parsed = { parts, street, line: lineOf(parts, street) };
      if (streetLimit > 0) streets.set(raw, parsed);
    }
    const zip = memoized(zips, input.zip_code, normalizeZip);
    const city = memoized(cities, input.city, normalizeCity);
    const state = memoized(states, input.state, normalizeState);
    return standardAddress(parsed.parts, parsed.street, parsed.line, city, state, zip);
  };
}
