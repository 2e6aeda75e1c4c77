-- owner: @skiptrace/batches
-- Batch skip tracing (packages/batches). A batch is one uploaded file; its accepted rows
-- are ordinary `properties` rows (batch_id, row_number set), its rejected rows live in
-- batch_rejects, and its work is split into row-range chunks (batch_chunks).
CREATE TABLE IF NOT EXISTS batches (
  id            BIGSERIAL   PRIMARY KEY,
  account_id    TEXT        NOT NULL,
  -- 'receiving' while the upload streams in; hidden from the API until it is 'queued'.
  status        TEXT        NOT NULL DEFAULT 'receiving'
                CHECK (status IN ('receiving', 'queued', 'running', 'completed', 'cancelled', 'failed')),
  format        TEXT        NOT NULL CHECK (format IN ('csv', 'ndjson', 'json')),
  -- Input column names in input order; properties.input / batch_rejects.raw hold values by index.
  columns       JSONB       NOT NULL DEFAULT '[]'::jsonb,
  -- Input rows (accepted + rejected); the batch is done when processed + rejected = total.
  total         INTEGER     NOT NULL DEFAULT 0,
  rejected      INTEGER     NOT NULL DEFAULT 0,
  processed     INTEGER     NOT NULL DEFAULT 0,
  matched       INTEGER     NOT NULL DEFAULT 0,
  no_match      INTEGER     NOT NULL DEFAULT 0,
  failed        INTEGER     NOT NULL DEFAULT 0,
  -- Rows answered from a recent stored result of the same account instead of traced again.
  reused        INTEGER     NOT NULL DEFAULT 0,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  started_at    TIMESTAMPTZ,
  completed_at  TIMESTAMPTZ,
  updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- GET /property/skiptrace/batches: an account's batches newest first (keyset on id).
CREATE INDEX IF NOT EXISTS batches_account_id_desc ON batches (account_id, id DESC);
-- The batch sweep looks only at unfinished batches.
CREATE INDEX IF NOT EXISTS batches_unfinished ON batches (updated_at)
  WHERE status IN ('receiving', 'queued', 'running');

-- Work units. 'waiting' chunks are not on the broker yet (per-batch in-flight window),
-- 'queued' ones were handed to it at published_at, 'done' ones were traced.
CREATE TABLE IF NOT EXISTS batch_chunks (
  batch_id      BIGINT      NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  from_row      INTEGER     NOT NULL,
  to_row        INTEGER     NOT NULL,
  state         TEXT        NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'queued', 'done')),
  published_at  TIMESTAMPTZ,
  PRIMARY KEY (batch_id, from_row)
);
CREATE INDEX IF NOT EXISTS batch_chunks_queued ON batch_chunks (published_at) WHERE state = 'queued';

CREATE TABLE IF NOT EXISTS batch_rejects (
  batch_id      BIGINT      NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  row_number    INTEGER     NOT NULL,
  reason        TEXT        NOT NULL,
  -- The input row: values by column index (array), or the unparseable text (string).
  raw           JSONB,
  PRIMARY KEY (batch_id, row_number)
);

-- Idempotency-Key records for batch uploads, kept 24 h like the synchronous ones.
CREATE TABLE IF NOT EXISTS batch_idempotency_keys (
  account_id    TEXT        NOT NULL,
  key           TEXT        NOT NULL,
  request_hash  TEXT        NOT NULL,
  batch_id      BIGINT      NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, key)
);

-- The input row of a batch row (values by batches.columns index), kept for the CSV export.
ALTER TABLE properties ADD COLUMN IF NOT EXISTS input JSONB;
-- Chunk loads and the ordered export walk a batch by row number; one row per input row.
CREATE UNIQUE INDEX IF NOT EXISTS properties_batch_row ON properties (batch_id, row_number)
  WHERE batch_id IS NOT NULL;
-- Reuse of a recent result for the same account and address (batch worker).
CREATE INDEX IF NOT EXISTS properties_trace_key ON properties (account_id, lower(street_address), left(zip_code, 5))
  WHERE status IN ('completed', 'no_match');
