-- The owner model (ADR 0010, docs/contact-data.md): a contact row is one person seen at
-- one address. Rows imported with a `person_id` carry `person_key` (the import's source
-- label and the person_id), so one person's rows at several addresses can be read
-- together: their address history (first_seen / last_seen), the current address (the one
-- seen last) and every phone with its own dates. Rows without a person_id keep their old
-- meaning (one person seen at that address) and an empty person_key.
--
-- Dates are kept as written (YYYY, YYYY-MM or YYYY-MM-DD, '' when not given); the engine
-- compares them as the first or last day of the period they name.
--
-- On an existing table: ADD COLUMN with a constant default rewrites nothing; the partial
-- hash index holds only rows with a person_key.
ALTER TABLE contacts ADD COLUMN IF NOT EXISTS person_key text COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE contacts ADD COLUMN IF NOT EXISTS middle_name text NOT NULL DEFAULT '';
ALTER TABLE contacts ADD COLUMN IF NOT EXISTS suffix text NOT NULL DEFAULT '';
ALTER TABLE contacts ADD COLUMN IF NOT EXISTS birth_year smallint;
ALTER TABLE contacts ADD COLUMN IF NOT EXISTS deceased boolean NOT NULL DEFAULT false;
ALTER TABLE contacts ADD COLUMN IF NOT EXISTS first_seen text NOT NULL DEFAULT '';
ALTER TABLE contacts ADD COLUMN IF NOT EXISTS last_seen text NOT NULL DEFAULT '';

CREATE INDEX IF NOT EXISTS contacts_person_key_idx ON contacts USING hash (person_key) WHERE person_key <> '';
