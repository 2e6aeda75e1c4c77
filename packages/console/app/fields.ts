/**
 * The request's fields with the labels every form and mapping uses (tests rely on them): the
 * seed's six, then the owner's optional mailing address and the parcel number.
 */
import { FIELDS, type Field } from '@skiptrace/batches/column-rules';
import type { Property } from './api.ts';

export { FIELDS, type Field };

/** The seed's six Property fields: the property and the owner's name. */
export const PROPERTY_FIELDS = [
  'street_address',
  'city',
  'state',
  'zip_code',
  'first_name',
  'last_name',
] as const satisfies readonly Field[];
/** The owner's mailing address, as four form fields (the request nests them in `mailing_address`). */
export const MAILING_FIELDS = ['mailing_street_address', 'mailing_city', 'mailing_state', 'mailing_zip_code'] as const;
export type MailingField = (typeof MAILING_FIELDS)[number];
/** Every field of the trace form. */
export type FormField = (typeof PROPERTY_FIELDS)[number] | MailingField | 'apn';
export const FORM_FIELDS: readonly FormField[] = [...PROPERTY_FIELDS, ...MAILING_FIELDS, 'apn'];

// No label contains another one ("City" / "Mailing city" differ in their first word; the
// browser test finds fields by exact label).
export const FIELD_LABELS: Record<Field | FormField, string> = {
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
export const maxLength = (field: FormField): number =>
  field === 'apn' ? 64 : field.endsWith('street_address') ? 200 : 100;

/**
 * The request of a filled-in form: values trimmed, empty optional fields left out, the four
 * mailing fields nested as `mailing_address` when any of them is filled (the API names a
 * missing part).
 */
export function propertyFromForm(form: Record<FormField, string>): Property {
  const value = (field: FormField) => form[field].trim();
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
