-- owner: @skiptrace/core
-- Skip-trace requests and their results. One row per submitted property; the row id is
-- the seed's int64 `id`. Results are a JSONB document (the PropertyResponse results).
CREATE TABLE IF NOT EXISTS properties (
  id              BIGSERIAL PRIMARY KEY,
  account_id      TEXT        NOT NULL,
  street_address  TEXT        NOT NULL,
  city            TEXT        NOT NULL,
  state           TEXT        NOT NULL,
  zip_code        TEXT        NOT NULL,
  first_name      TEXT,
  last_name       TEXT,
  batch_id        TEXT,
  row_number      INTEGER,
  status          TEXT        NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'completed', 'no_match', 'failed')),
  error           TEXT,
  results         JSONB       NOT NULL DEFAULT '[]'::jsonb,
  created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
  completed_at    TIMESTAMPTZ,
  -- outbox: when the job was last handed to the broker by the recovery sweep
  republished_at  TIMESTAMPTZ
);

-- GET /property/skiptrace lists an account's results newest first with a keyset cursor.
CREATE INDEX IF NOT EXISTS properties_account_id_desc ON properties (account_id, id DESC);
-- The recovery sweep looks only at synchronous rows still pending.
CREATE INDEX IF NOT EXISTS properties_pending_sync ON properties (created_at)
  WHERE status = 'pending' AND batch_id IS NULL;

-- Idempotency-Key records for POST /property/skiptrace (kept 24 h, see the sweep).
CREATE TABLE IF NOT EXISTS idempotency_keys (
  account_id    TEXT        NOT NULL,
  key           TEXT        NOT NULL,
  request_hash  TEXT        NOT NULL,
  property_id   BIGINT      NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, key)
);
