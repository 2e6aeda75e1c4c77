-- owner: @skiptrace/contacts
-- Planner statistics only for the columns a query searches by. An import into an empty
-- store ends with ANALYZE (storage/statistics.ts, contact-load.ts): it samples 30,000 rows
-- and, for every column, sorts the sample's values to count distinct ones and find the
-- common ones — under the database's collation for text, which is most of its cost.
-- Measured on a fresh 600,000-row contacts table (people, three addresses each): ANALYZE
-- took 0.68 s with every column, 0.31 s with these; on 96,563 property records, 0.47 s and
-- about 0.1 s. Nothing a query filters, joins or sorts on loses its statistics:
--
-- * contacts is searched by id, address_key, zip5, state, city and person_key (the
--   candidate and person lookups, packages/contacts find-candidates.ts, find-people.ts;
--   the blocking indexes' split_part expressions keep their own statistics, computed with
--   the table's); row_hash only backs the unique constraint ON CONFLICT arbitrates on.
-- * property_records is searched by address_key only (find-people.ts); record_key backs
--   the unique constraint of the upsert.
--
-- The other columns are read back, never searched: SET STATISTICS 0 makes ANALYZE (the
-- imports' and autovacuum's) skip them. The bulk load's load table takes these targets
-- over before it is analyzed (LIKE does not copy them; contact-load.ts). No rewrite, no
-- long lock: a catalogue change.
ALTER TABLE contacts
  ALTER COLUMN unit_key SET STATISTICS 0,
  ALTER COLUMN first_name SET STATISTICS 0,
  ALTER COLUMN last_name SET STATISTICS 0,
  ALTER COLUMN first_norm SET STATISTICS 0,
  ALTER COLUMN last_norm SET STATISTICS 0,
  ALTER COLUMN street_address SET STATISTICS 0,
  ALTER COLUMN phones SET STATISTICS 0,
  ALTER COLUMN emails SET STATISTICS 0,
  ALTER COLUMN source SET STATISTICS 0,
  ALTER COLUMN row_hash SET STATISTICS 0,
  ALTER COLUMN imported_at SET STATISTICS 0,
  ALTER COLUMN middle_name SET STATISTICS 0,
  ALTER COLUMN suffix SET STATISTICS 0,
  ALTER COLUMN birth_year SET STATISTICS 0,
  ALTER COLUMN deceased SET STATISTICS 0,
  ALTER COLUMN first_seen SET STATISTICS 0,
  ALTER COLUMN last_seen SET STATISTICS 0;

ALTER TABLE property_records
  ALTER COLUMN record_key SET STATISTICS 0,
  ALTER COLUMN apn SET STATISTICS 0,
  ALTER COLUMN unit_key SET STATISTICS 0,
  ALTER COLUMN street_address SET STATISTICS 0,
  ALTER COLUMN city SET STATISTICS 0,
  ALTER COLUMN state SET STATISTICS 0,
  ALTER COLUMN zip5 SET STATISTICS 0,
  ALTER COLUMN owner_name SET STATISTICS 0,
  ALTER COLUMN owner_name_2 SET STATISTICS 0,
  ALTER COLUMN owner_1_first_name SET STATISTICS 0,
  ALTER COLUMN owner_1_last_name SET STATISTICS 0,
  ALTER COLUMN owner_2_first_name SET STATISTICS 0,
  ALTER COLUMN owner_2_last_name SET STATISTICS 0,
  ALTER COLUMN name_order SET STATISTICS 0,
  ALTER COLUMN mailing_street_address SET STATISTICS 0,
  ALTER COLUMN mailing_city SET STATISTICS 0,
  ALTER COLUMN mailing_state SET STATISTICS 0,
  ALTER COLUMN mailing_zip5 SET STATISTICS 0,
  ALTER COLUMN mailing_key SET STATISTICS 0,
  ALTER COLUMN mailing_unit_key SET STATISTICS 0,
  ALTER COLUMN owner_occupied SET STATISTICS 0,
  ALTER COLUMN last_sale_date SET STATISTICS 0,
  ALTER COLUMN source SET STATISTICS 0,
  ALTER COLUMN imported_at SET STATISTICS 0;
