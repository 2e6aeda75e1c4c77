/**
 * How input columns feed the Property fields: canonical names and vendor aliases, matched
 * case- and punctuation-insensitively. Pure (no Node or server imports): the web console
 * bundles this file to pre-fill its column mapping with exactly the server's rules.
 */
import { MAILING_FIELDS, PROPERTY_FIELDS, type PropertyField } from '@skiptrace/contracts/property-fields';

/**
 * The Property fields an input column can feed (@skiptrace/contracts); the four `mailing_*`
 * columns feed the request's `mailing_address` (the owner's, as absentee-owner lists carry it).
 */
export const FIELDS = PROPERTY_FIELDS;
export type Field = PropertyField;
export { MAILING_FIELDS };

/** Lower case, runs of anything but letters and digits become one `_`: "Property Address" → "property_address". */
export const normalizeName = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/** Canonical names and the spellings common list vendors and CRMs export (normalized). */
const ALIASES: Record<Field, string[]> = {
  street_address: [
    'street_address',
    'address',
    'street',
    'address1',
    'address_1',
    'address_line_1',
    'property_address',
    'property_street',
    'site_address',
    'situs_address',
    'addr',
  ],
  city: ['city', 'property_city', 'site_city', 'situs_city', 'town'],
  state: ['state', 'st', 'property_state', 'site_state', 'situs_state', 'state_code', 'province'],
  zip_code: ['zip_code', 'zip', 'zipcode', 'zip5', 'postal_code', 'postcode', 'property_zip', 'site_zip', 'situs_zip'],
  first_name: [
    'first_name',
    'firstname',
    'first',
    'owner_first_name',
    'owner_first',
    'owner1_first_name',
    'given_name',
  ],
  last_name: [
    'last_name',
    'lastname',
    'last',
    'owner_last_name',
    'owner_last',
    'owner1_last_name',
    'surname',
    'family_name',
  ],
  mailing_street_address: [
    'mailing_street_address',
    'mailing_address',
    'mail_address',
    'mail_addr',
    'mailing_street',
    'mailing_address_1',
    'owner_mailing_address',
    'owner_address',
  ],
  mailing_city: ['mailing_city', 'mail_city', 'owner_mailing_city', 'owner_city'],
  mailing_state: ['mailing_state', 'mail_state', 'owner_mailing_state', 'owner_state'],
  mailing_zip_code: ['mailing_zip_code', 'mailing_zip', 'mail_zip', 'mail_zip_code', 'owner_mailing_zip', 'owner_zip'],
  apn: ['apn', 'parcel_number', 'parcel_id', 'parcel', 'apn_number', 'assessor_parcel_number', 'pin', 'folio'],
};

/** Explicit overrides: Property field → input column name. */
export type ColumnMap = Partial<Record<Field, string>>;

/** For each field, the index of the input column that feeds it (-1 when none does). */
export type Resolution = Record<Field, number>;

export function resolveColumns(columns: readonly string[], map: ColumnMap): Resolution {
  const exact = new Map<string, number>();
  const normalized = new Map<string, number>();
  columns.forEach((name, i) => {
    if (!exact.has(name)) exact.set(name, i);
    const key = normalizeName(name);
    if (!normalized.has(key)) normalized.set(key, i);
  });
  const out = {} as Resolution;
  for (const field of FIELDS) {
    const wanted = map[field];
    if (wanted !== undefined) {
      out[field] = exact.get(wanted) ?? normalized.get(normalizeName(wanted)) ?? -1;
      continue;
    }
    out[field] = -1;
    for (const alias of ALIASES[field]) {
      const i = normalized.get(alias);
      if (i !== undefined) {
        out[field] = i;
        break;
      }
    }
  }
  return out;
}
