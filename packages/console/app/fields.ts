/** The six Property fields with the labels every form and mapping uses (tests rely on them). */
import { FIELDS, type Field } from '@skiptrace/batches/column-rules';

export { FIELDS, type Field };

export const FIELD_LABELS: Record<Field, string> = {
  street_address: 'Street address',
  city: 'City',
  state: 'State',
  zip_code: 'ZIP code',
  first_name: 'First name',
  last_name: 'Last name',
};

export const REQUIRED_FIELDS: readonly Field[] = ['street_address', 'city', 'state', 'zip_code'];
