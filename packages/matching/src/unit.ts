/**
 * Secondary-unit detection (Pub 28 C2): "Apt. 5B", "#5", "Unit 2", "Ste 100", "Rear",
 * and a bare trailing unit after the suffix ("123 Main St 5B" → # 5B).
 */
import { SUFFIX_BY_FORM } from './tables/suffixes.ts';
import { DIRECTIONAL_BY_FORM, UNIT_BY_FORM, UNIT_REQUIRES_RANGE } from './tables/units.ts';

export interface UnitSplit {
  street: string[];
  unitType: string | null;
  unitNumber: string | null;
}

/** Suffixes that take a route number after them ("Hwy 9", "County Rd 42"), not a unit. */
const NUMBERED_TYPES = new Set(['HWY', 'RTE', 'FWY', 'EXPY', 'TPKE', 'LOOP', 'SPUR']);
const NUMBERED_PREFIXES = new Set(['COUNTY', 'CNTY', 'CO', 'STATE', 'FM', 'FARM', 'US', 'SR', 'CR', 'INTERSTATE']);

const isSuffix = (token: string): boolean => SUFFIX_BY_FORM.has(token);
const isDirectional = (token: string): boolean => DIRECTIONAL_BY_FORM.has(token);

/** A plausible unit identifier: has a digit (5, 5B, B-2, 101) or is one or two letters. */
function isUnitId(token: string | undefined): token is string {
  if (token === undefined || token === '#' || token.length > 8) return false;
  return /\d/.test(token) || (/^[A-Z]{1,2}$/.test(token) && !isSuffix(token));
}

/** Unit numbers compare without hyphens or leading zeros: "05-B" → "5B". */
export function normalizeUnitNumber(parts: readonly string[]): string {
  return parts.map((part) => part.replace(/-/g, '').replace(/^0+(?=\d)/, '')).join(' ');
}

/** True when tokens[0, end) contains a word other than a directional — a street name. */
function hasNameBefore(tokens: readonly string[], end: number): boolean {
  for (let i = 0; i < end; i++) {
    const token = tokens[i] as string;
    if (token !== '#' && !isDirectional(token)) return true;
  }
  return false;
}

function readDesignator(tokens: readonly string[], at: number, type: string): Omit<UnitSplit, 'street'> | null {
  let k = at + 1;
  if (tokens[k] === '#') k++;
  const id = tokens[k];
  if (UNIT_REQUIRES_RANGE.get(type) === true) {
    if (!isUnitId(id)) return null;
    const parts = [id];
    const secondType = UNIT_BY_FORM.get(tokens[k + 1] ?? '');
    const secondId = tokens[k + 2];
    if (secondType !== undefined && isUnitId(secondId)) {
      if (secondType !== '#') parts.push(secondType);
      parts.push(secondId);
    }
    return { unitType: type, unitNumber: normalizeUnitNumber(parts) };
  }
  // Stand-alone designators (REAR, FRNT, PH, LOWR …) must follow a suffix that follows a
  // name, so "Lake Front" and "Front St" stay street names; an id after them is optional.
  const previous = tokens[at - 1] ?? '';
  if (at < 2 || !isSuffix(previous)) return null;
  if (id === undefined) return { unitType: type, unitNumber: null };
  return isUnitId(id) && k === tokens.length - 1 ? { unitType: type, unitNumber: normalizeUnitNumber([id]) } : null;
}

function trailingBareUnit(tokens: readonly string[]): UnitSplit | null {
  const n = tokens.length;
  const last = tokens[n - 1];
  if (n < 3 || !isUnitId(last) || isDirectional(last) || last.length > 6) return null;
  let suffixAt = n - 2;
  if (isDirectional(tokens[suffixAt] as string)) suffixAt--;
  const suffix = SUFFIX_BY_FORM.get(tokens[suffixAt] ?? '');
  if (suffix === undefined || suffixAt < 1 || NUMBERED_TYPES.has(suffix)) return null;
  if (!hasNameBefore(tokens, suffixAt)) return null;
  for (let i = 0; i < suffixAt; i++) if (NUMBERED_PREFIXES.has(tokens[i] as string)) return null;
  return { street: tokens.slice(0, n - 1), unitType: '#', unitNumber: normalizeUnitNumber([last]) };
}

/** Splits street tokens (house number already removed) into street words and a unit. */
export function splitUnit(tokens: readonly string[]): UnitSplit {
  for (let j = 1; j < tokens.length; j++) {
    const type = UNIT_BY_FORM.get(tokens[j] as string);
    if (type === undefined || !hasNameBefore(tokens, j)) continue;
    const unit = readDesignator(tokens, j, type);
    if (unit !== null) return { street: stripPound(tokens.slice(0, j)), ...unit };
  }
  const street = stripPound(tokens);
  // A designator left dangling with no number ("123 Main St Apt") says nothing we can
  // match on; it is dropped rather than read as part of the street name — unless it is
  // also a street suffix ("20 Ocean Key").
  const last = street[street.length - 1];
  if (
    last !== undefined &&
    !isSuffix(last) &&
    UNIT_REQUIRES_RANGE.get(UNIT_BY_FORM.get(last) ?? '') === true &&
    hasNameBefore(street, street.length - 1)
  ) {
    street.pop();
  }
  return trailingBareUnit(street) ?? { street, unitType: null, unitNumber: null };
}

function stripPound(tokens: readonly string[]): string[] {
  // (A copy either way: the caller may pop the street's last word.)
  return tokens.includes('#') ? tokens.filter((token) => token !== '#') : tokens.slice();
}
