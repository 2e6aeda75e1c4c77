/**
 * The property's fields, written once: the request's (`Property`), the flat columns a list
 * row or a form feeds them from, the columns of a property record (a county roll), and the
 * columns of `properties`. Everything that lists them (zod schemas, column rules, readers,
 * the store's columns, demo rows, query types) derives from these lists. Pure (no imports):
 * the web console bundles this file.
 */

/** The property's address, in the order lists write it. */
export const ADDRESS_FIELDS = ['street_address', 'city', 'state', 'zip_code'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

/** A person's name as a request (the owner's) or a contact row (the person's) gives it. */
export const NAME_FIELDS = ['first_name', 'last_name'] as const;
export type NameField = (typeof NAME_FIELDS)[number];

/** The owner's mailing address as flat columns; the request nests them as `mailing_address` (less the prefix). */
export const MAILING_FIELDS = ['mailing_street_address', 'mailing_city', 'mailing_state', 'mailing_zip_code'] as const;

/** The fields of a `Property` request (`mailing_address` nested, an Address). */
export const REQUEST_FIELDS = [...ADDRESS_FIELDS, ...NAME_FIELDS, 'mailing_address', 'apn'] as const;
export type RequestField = (typeof REQUEST_FIELDS)[number];

/** The flat fields an input column or a form field feeds: the request's, with the mailing address as four columns. */
export const PROPERTY_FIELDS = [...ADDRESS_FIELDS, ...NAME_FIELDS, ...MAILING_FIELDS, 'apn'] as const;
export type PropertyField = (typeof PROPERTY_FIELDS)[number];

/**
 * What a batch column can be mapped to: the flat fields and `owner_name`, the owner's whole
 * name in one column (split into first and last name by the upload).
 */
export const MAPPING_FIELDS = [...PROPERTY_FIELDS, 'owner_name'] as const;
export type MappingField = (typeof MAPPING_FIELDS)[number];

/** The owners as a property record writes them: up to two owner strings, and up to two owners' names. */
export const OWNER_NAME_COLUMNS = [
  'owner_name',
  'owner_name_2',
  'owner_1_first_name',
  'owner_1_last_name',
  'owner_2_first_name',
  'owner_2_last_name',
] as const;

/** The canonical columns of a property record (a county roll; `skiptrace import-properties`), in order. */
export const PROPERTY_RECORD_COLUMNS = [
  'apn',
  ...ADDRESS_FIELDS,
  ...OWNER_NAME_COLUMNS,
  ...MAILING_FIELDS,
  'owner_occupied',
  'last_sale_date',
] as const;
export type PropertyRecordColumn = (typeof PROPERTY_RECORD_COLUMNS)[number];

/**
 * The situs street line split as many county rolls give it — house number, direction,
 * street name, suffix, post-direction, unit (SITUS_HOUSE_NO, SITUS_STREET_NAME …):
 * `skiptrace import-properties` joins them into `street_address`.
 */
export const SITUS_STREET_PARTS = [
  'street_number',
  'street_direction',
  'street_name',
  'street_suffix',
  'street_post_direction',
  'unit',
] as const;
export type SitusStreetPart = (typeof SITUS_STREET_PARTS)[number];
