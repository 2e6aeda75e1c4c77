-- owner: @skiptrace/contacts
-- Property records (the county roll, or a list provider's export): who owns a parcel of
-- record and where their tax bill goes. Written by `skiptrace import-properties`
-- (packages/contacts import-properties.ts, docs/property-data.md); read by the trace
-- engine by the situs address key. Owner strings are kept as recorded and parsed into
-- owners of record (@skiptrace/owners) when a trace reads them, in the name order the
-- import detected for the file (`name_order`).
CREATE TABLE IF NOT EXISTS property_records (
  id bigserial PRIMARY KEY,
  -- The parcel's identity for replacement: its dwelling key (situs address key + unit).
  -- A newer record of the same parcel replaces the older one.
  record_key text COLLATE "C" NOT NULL UNIQUE,
  apn text NOT NULL DEFAULT '',
  -- The situs, standardised as contacts are (@skiptrace/matching).
  address_key text NOT NULL,
  unit_key text NOT NULL DEFAULT '',
  street_address text NOT NULL,
  city text NOT NULL,
  state text NOT NULL,
  zip5 text NOT NULL,
  owner_name text NOT NULL DEFAULT '',
  owner_name_2 text NOT NULL DEFAULT '',
  owner_1_first_name text NOT NULL DEFAULT '',
  owner_1_last_name text NOT NULL DEFAULT '',
  owner_2_first_name text NOT NULL DEFAULT '',
  owner_2_last_name text NOT NULL DEFAULT '',
  -- 'lastFirst' (roll order, "SMITH JOHN A") or 'firstLast' ("JOHN A SMITH").
  name_order text NOT NULL DEFAULT 'lastFirst' CHECK (name_order IN ('lastFirst', 'firstLast')),
  -- The mailing address standardised; all empty when the record has none.
  mailing_street_address text NOT NULL DEFAULT '',
  mailing_city text NOT NULL DEFAULT '',
  mailing_state text NOT NULL DEFAULT '',
  mailing_zip5 text NOT NULL DEFAULT '',
  mailing_key text NOT NULL DEFAULT '',
  mailing_unit_key text NOT NULL DEFAULT '',
  owner_occupied boolean,
  last_sale_date text NOT NULL DEFAULT '',
  source text NOT NULL DEFAULT '',
  imported_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS property_records_address_key_idx ON property_records USING hash (address_key);
