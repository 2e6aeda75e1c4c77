-- owner: @skiptrace/batches
-- Any file a list comes in (#27): a batch may be uploaded as an Excel workbook, and an
-- account's column mappings are remembered per header set, chosen again when the same
-- header comes back (packages/batches/src/mappings.ts).
ALTER TABLE batches DROP CONSTRAINT IF EXISTS batches_format_check;
ALTER TABLE batches ADD CONSTRAINT batches_format_check CHECK (format IN ('csv', 'ndjson', 'json', 'xlsx'));

CREATE TABLE IF NOT EXISTS column_mappings (
  id          BIGSERIAL   PRIMARY KEY,
  account_id  TEXT        NOT NULL,
  -- sha256 of the header's folded names, sorted and de-duplicated: the same columns in any order, case or spacing.
  header_key  TEXT        NOT NULL,
  -- The header as it was uploaded, and field → column name.
  columns     JSONB       NOT NULL,
  map         JSONB       NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (account_id, header_key)
);
