-- Usage and quotas (#28): what each account and API client used, per UTC day, counted in
-- the statement that stores the work (a redelivered job or chunk stores nothing and counts
-- nothing), and the accounts' optional monthly quotas.

-- The API client that submitted the work (the token's client_id); NULL for rows from
-- before this migration.
ALTER TABLE properties ADD COLUMN IF NOT EXISTS client_id TEXT;
ALTER TABLE batches ADD COLUMN IF NOT EXISTS client_id TEXT;

-- owner: @skiptrace/usage
CREATE TABLE IF NOT EXISTS usage_daily (
  account_id         TEXT   NOT NULL,
  -- '' when the client is unknown (work from before usage was counted)
  client_id          TEXT   NOT NULL DEFAULT '',
  day                DATE   NOT NULL,
  sync_traces        BIGINT NOT NULL DEFAULT 0,
  batch_rows         BIGINT NOT NULL DEFAULT 0,
  hits               BIGINT NOT NULL DEFAULT 0,
  misses             BIGINT NOT NULL DEFAULT 0,
  phones             BIGINT NOT NULL DEFAULT 0,
  webhook_deliveries BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, day, client_id)
);

CREATE TABLE IF NOT EXISTS account_quotas (
  account_id   TEXT PRIMARY KEY,
  -- NULL: no quota of that kind
  monthly_hits BIGINT CHECK (monthly_hits >= 0),
  monthly_rows BIGINT CHECK (monthly_rows >= 0),
  updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- One 80 % warning per account, month and quota: the insert that wins sends the event.
CREATE TABLE IF NOT EXISTS quota_warnings (
  account_id TEXT        NOT NULL,
  month      DATE        NOT NULL,
  quota      TEXT        NOT NULL CHECK (quota IN ('hits', 'rows')),
  sent_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, month, quota)
);
