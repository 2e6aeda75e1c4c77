/** The Property fields (the seed's six, the owner's mailing address, the parcel number) with the labels every form and mapping uses (tests rely on them). */
import { FIELDS, type Field } from '@skiptrace/batches/column-rules';

export { FIELDS, type Field };

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
