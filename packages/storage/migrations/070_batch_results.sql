-- owner: @skiptrace/batches
-- Outcomes of batch rows, written insert-only (packages/batches chunk handler). A batch row's
-- `properties` row keeps its input and stays `pending`; its outcome is one row here, keyed by
-- (batch_id, row_number) like the row itself. Updating 500 `properties` rows per chunk gave
-- each row a new version and four index entries (never HOT: `status` is in partial-index
-- predicates); an insert here writes one heap tuple and two index entries, and leaves no
-- dead version behind. Reads join it: GET /property/skiptrace(/{id}), the export, reuse.
-- No foreign keys (a per-row RI check each): purge and erase delete here explicitly,
-- under the batch row's lock (see packages/batches/src/results.ts).
CREATE TABLE IF NOT EXISTS batch_results (
  batch_id      BIGINT      NOT NULL,
  row_number    INTEGER     NOT NULL,
  account_id    TEXT        NOT NULL,
  -- md5 of the row's reuse key (address and owner name, case-insensitive): TRACE_KEY_SQL.
  trace_key     UUID        NOT NULL,
  status        TEXT        NOT NULL CHECK (status IN ('completed', 'no_match', 'failed')),
  -- Answered from an earlier result (of this batch or a recent one) instead of traced.
  reused        BOOLEAN     NOT NULL DEFAULT false,
  error         TEXT,
  -- As properties.people_total (migration 031): how many people matched when `results` is
  -- not all of them, NULL when it is.
  people_total  INTEGER,
  -- The PropertyResponse results; json (stored as sent), never queried inside.
  results       JSON        NOT NULL,
  completed_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (batch_id, row_number)
);
-- Reuse of a recent result of the same account and address by later chunks and batches.
CREATE INDEX IF NOT EXISTS batch_results_reuse ON batch_results (account_id, trace_key, completed_at)
  WHERE status IN ('completed', 'no_match');
