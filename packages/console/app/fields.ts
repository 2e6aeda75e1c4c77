/**
 * The Property fields (the seed's six, the owner's mailing address, the parcel number) with
 * the labels every form and mapping uses (tests rely on them), and the trace form's request.
 */
import {
  ADDRESS_FIELDS,
  MAILING_FIELDS,
  MAPPING_FIELDS,
  NAME_FIELDS,
  PROPERTY_FIELDS as FIELDS,
  type MappingField,
  type PropertyField as Field,
} from '@skiptrace/contracts/property-fields';
import type { Property } from './api.ts';

export { FIELDS, MAILING_FIELDS, MAPPING_FIELDS, type Field, type MappingField };

/** The seed's six: the property and the owner's name. */
export const PROPERTY_FIELDS: readonly Field[] = [...ADDRESS_FIELDS, ...NAME_FIELDS];

// No label is the start of another one's words ("City" / "Mailing city"): the browser test
// finds fields by exact label.
export const FIELD_LABELS: Record<MappingField, string> = {
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
  owner_name: 'Owner full name',
};

export const REQUIRED_FIELDS: readonly MappingField[] = ADDRESS_FIELDS;

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
  const property: Record<string, unknown> = {};
  for (const field of ADDRESS_FIELDS) property[field] = value(field);
  for (const field of NAME_FIELDS) if (value(field)) property[field] = value(field);
  if (MAILING_FIELDS.some((f) => value(f) !== ''))
    property.mailing_address = Object.fromEntries(MAILING_FIELDS.map((f) => [f.slice('mailing_'.length), value(f)]));
  if (value('apn')) property.apn = value('apn');
  return property as Property;
}
