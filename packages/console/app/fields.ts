/**
 * The Property fields (the seed's six, the owner's mailing address, the parcel number) with
 * the labels every form and mapping uses (tests rely on them), and the trace form's request.
 */
import { FIELDS, MAILING_FIELDS, type Field } from '@skiptrace/batches/column-rules';
import type { Property } from './api.ts';

export { FIELDS, MAILING_FIELDS, type Field };

const mailing: readonly Field[] = MAILING_FIELDS;
/** The seed's six: the property and the owner's name. */
export const PROPERTY_FIELDS = FIELDS.filter((f) => f !== 'apn' && !mailing.includes(f));

// No label is the start of another one's words ("City" / "Mailing city"): the browser test
// finds fields by exact label.
export const FIELD_LABELS: Record<Field, string> = {
  street_address: 'Street address',
  city: 'City',
  state: 'State',
  zip_code: 'ZIP code',
  first_name: 'First name',
  last_name: 'Last name',
  mailing_street_address: 'Mailing street address',
  mailing_city: 'Mailing city',
  mailing_state: 'Mailing state',
  mailing_zip_code: 'Mailing ZIP code',
  apn: 'Parcel number (APN)',
};

export const REQUIRED_FIELDS: readonly Field[] = ['street_address', 'city', 'state', 'zip_code'];

/** Longest value a field takes (LIMITS of @skiptrace/contracts). */
export const maxLength = (field: Field): number =>
  field === 'apn' ? 64 : field.endsWith('street_address') ? 200 : 100;

/**
 * The request of a filled-in form: values trimmed, empty optional fields left out, the four
 * mailing fields nested as `mailing_address` when any of them is filled (the API names a
 * missing part).
 */
export function propertyFromForm(form: Record<Field, string>): Property {
  const value = (field: Field) => form[field].trim();
  const property: Property = {
    street_address: value('street_address'),
    city: value('city'),
    state: value('state'),
    zip_code: value('zip_code'),
  };
  if (value('first_name')) property.first_name = value('first_name');
  if (value('last_name')) property.last_name = value('last_name');
  if (MAILING_FIELDS.some((f) => value(f) !== ''))
    property.mailing_address = {
      street_address: value('mailing_street_address'),
      city: value('mailing_city'),
      state: value('mailing_state'),
      zip_code: value('mailing_zip_code'),
    };
  if (value('apn')) property.apn = value('apn');
  return property;
}
