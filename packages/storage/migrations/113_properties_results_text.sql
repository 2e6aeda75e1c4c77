-- owner: @skiptrace/core
-- A synchronous trace's stored results and owner facts as text, not jsonb. Every completed
-- trace writes them once (the worker's JSON.stringify) and most are never read again; jsonb
-- parsed each ~2 kB owner-model document into its binary form on the way in: 200,000 such
-- documents COPYed with lz4 took 6.5–7.0 s as jsonb, 2.4–3.0 s as text, about 20 µs of the
-- database's CPU a trace (docs/benchmarks-history.md note 2). Readers cast: the API's reads and the
-- history's phone and name filters (`::json`, `::jsonb`), the batch exports and reuse take
-- the text. The views of migration 110 name the columns, so they are made again as they were.
-- The change rewrites the table once.
DROP VIEW IF EXISTS batch_inputs;
DROP VIEW IF EXISTS reusable_traces;
ALTER TABLE properties ALTER COLUMN results DROP DEFAULT;
ALTER TABLE properties
  ALTER COLUMN results TYPE text USING results::text,
  ALTER COLUMN owner_facts TYPE text USING owner_facts::text;
ALTER TABLE properties ALTER COLUMN results SET DEFAULT '[]';
DO $$
BEGIN
  ALTER TABLE properties ALTER COLUMN results SET COMPRESSION lz4;
  ALTER TABLE properties ALTER COLUMN owner_facts SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;

-- owner: @skiptrace/core
CREATE VIEW batch_inputs AS
SELECT id, account_id, batch_id, row_number, street_address, city, state, zip_code, first_name, last_name,
       mailing_address, apn, input, status, error, results, people_total, owner_facts, created_at, completed_at
  FROM properties
 WHERE batch_id IS NOT NULL;

-- owner: @skiptrace/core
CREATE VIEW reusable_traces AS
SELECT account_id, street_address, city, state, zip_code, first_name, last_name, mailing_address, apn,
       status, error, results, people_total, owner_facts, completed_at
  FROM properties
 WHERE status IN ('completed', 'no_match');
