-- owner: @skiptrace/core
-- Core's published relations (scripts/boundaries.ts: a package names only its own tables and
-- the views of packages it declares). A batch row is a `properties` row with a batch_id, so
-- that GET /property/skiptrace/{id} and DELETE /plants/{id} serve it like any other; the
-- batches package reads those rows here and writes them through @skiptrace/core's
-- batch-inputs.ts, never naming `properties`. Both are plain views: PostgreSQL (and PGlite)
-- inline them, so the indexes on properties (properties_batch_row, properties_trace_key)
-- serve the queries as before.

-- The batch rows: their input, and (rows traced before migration 070) their outcome columns.
CREATE OR REPLACE VIEW batch_inputs AS
SELECT id, account_id, batch_id, row_number, street_address, city, state, zip_code, first_name, last_name,
       mailing_address, apn, input, status, error, results, people_total, owner_facts, created_at, completed_at
  FROM properties
 WHERE batch_id IS NOT NULL;

-- The finished traces a batch may reuse instead of tracing again (BATCH_REUSE_TTL).
CREATE OR REPLACE VIEW reusable_traces AS
SELECT account_id, street_address, city, state, zip_code, first_name, last_name, mailing_address, apn,
       status, error, results, people_total, owner_facts, completed_at
  FROM properties
 WHERE status IN ('completed', 'no_match');
