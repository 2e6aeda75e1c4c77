/**
 * Phone normalisation to E.164 and line-type mapping.
 *
 * libphonenumber-js with the `max` metadata: `min` treats isValid() like isPossible() for
 * most countries, so "(312) 123-4567" (exchange starting with 1) would pass; `max` rejects
 * it. Parsing costs ~9 µs either way (measured, BENCHMARKS.md), so we pay nothing for `max`.
 *
 * The NANP fictional range NPA-555-0100…0199 is valid under `max` for real area codes, so
 * the demo data needs no exemption; a test pins that.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';

export type PhoneType = 'mobile' | 'landline' | 'voip' | 'unknown';

/**
 * E.164 ("+12125550142") for a valid number, else null. Extensions are dropped: we dial
 * the line, not the desk. `defaultCountry` applies to numbers written without "+".
 */
export function normalizePhone(raw: string | null | undefined, defaultCountry: CountryCode = 'US'): string | null {
  if (raw == null) return null;
  const text = raw.trim();
  if (text === '' || !/\d/.test(text)) return null;
  const phone = parsePhoneNumberFromString(text, defaultCountry);
  if (phone === undefined || !phone.isValid()) return null;
  return phone.number;
}

const TYPE_BY_LABEL: ReadonlyMap<string, PhoneType> = new Map([
  ['MOBILE', 'mobile'],
  ['CELL', 'mobile'],
  ['CELLULAR', 'mobile'],
  ['WIRELESS', 'mobile'],
  ['M', 'mobile'],
  ['C', 'mobile'],
  ['LANDLINE', 'landline'],
  ['LAND', 'landline'],
  ['LANDLINEPHONE', 'landline'],
  ['FIXED', 'landline'],
  ['FIXEDLINE', 'landline'],
  ['WIRELINE', 'landline'],
  ['RESIDENTIAL', 'landline'],
  ['L', 'landline'],
  ['VOIP', 'voip'],
  ['INTERNET', 'voip'],
  ['NONFIXEDVOIP', 'voip'],
  ['FIXEDVOIP', 'voip'],
  ['V', 'voip'],
]);

/**
 * Line type from the dataset's own label ("Mobile", "cell", "Landline", "VoIP", "W" …).
 *
 * We never infer it from the number: for US numbers libphonenumber's fixed-line and mobile
 * patterns are identical (it reports FIXED_LINE_OR_MOBILE) and Google's +1 carrier file
 * covers only the Caribbean and territories, because number portability means a US
 * NPA-NXX says nothing reliable about today's line (research §4.1–4.2). Without a label,
 * or with one we do not recognise, the answer is 'unknown'.
 */
export function phoneType(dataType?: string | null): PhoneType {
  if (dataType == null) return 'unknown';
  const label = dataType.toUpperCase().replace(/[^A-Z]/g, '');
  return TYPE_BY_LABEL.get(label) ?? 'unknown';
}
