/** State and ZIP normalisation (USPS two-letter codes; ZIP5 and ZIP+4). */
import { foldAscii } from './text.ts';
import { STATE_ALIASES, STATE_NAMES } from './tables/states.ts';

export interface Zip {
  /** Five-digit ZIP code, zero-padded ("02134"). */
  zip5: string;
  /** Four-digit add-on, or null when absent or malformed. */
  zip4: string | null;
}

const CODE_BY_NAME: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const [code, name] of STATE_NAMES) {
    map.set(name, code);
    map.set(name.replace(/ /g, ''), code);
  }
  for (const [alias, code] of STATE_ALIASES) {
    map.set(alias, code);
    map.set(alias.replace(/ /g, ''), code);
  }
  return map;
})();

/**
 * USPS two-letter code for a state, DC, territory or military "state" given as a code,
 * full name or common abbreviation ("Calif.", "N. Dak.", "new york"); null if unknown.
 */
export function normalizeState(input: string | null | undefined): string | null {
  if (input == null) return null;
  const words = foldAscii(input)
    .replace(/[^A-Z]+/g, ' ')
    .trim();
  if (words.length === 2 && STATE_NAMES.has(words)) return words;
  return CODE_BY_NAME.get(words) ?? CODE_BY_NAME.get(words.replace(/ /g, '')) ?? null;
}

/**
 * Parses "90210", "90210-1234", "90210 1234" and "902101234". Spreadsheets drop leading
 * zeros, so 3–4 digit ZIPs (and 7–8 digit ZIP+4s) are zero-padded; "02134.0" loses its
 * ".0". A malformed add-on is dropped rather than failing the whole ZIP. Null when no
 * usable ZIP5 (or it is 00000).
 */
export function normalizeZip(input: string | number | null | undefined): Zip | null {
  if (input == null) return null;
  const text = String(input).trim().replace(/\.0+$/, '');
  let zip5: string;
  let zip4: string | null = null;
  if (/^\d+$/.test(text)) {
    if (text.length >= 3 && text.length <= 5) zip5 = text.padStart(5, '0');
    else if (text.length >= 7 && text.length <= 9) {
      const padded = text.padStart(9, '0');
      zip5 = padded.slice(0, 5);
      zip4 = padded.slice(5);
    } else return null;
  } else {
    const match = /^(\d{3,5})\s*[-\s]\s*(\d*)$/.exec(text);
    if (match === null) return null;
    zip5 = (match[1] as string).padStart(5, '0');
    const addOn = match[2] as string;
    if (addOn.length === 4) zip4 = addOn;
  }
  if (zip5 === '00000') return null;
  return { zip5, zip4: zip4 === '0000' ? null : zip4 };
}
