-- Lists with identity (#27 item 3): a batch has a name (the uploaded file's by default,
-- editable) and tags; `fresh` batches trace every row again instead of reusing a result of
-- the last BATCH_REUSE_TTL (an upload with ?fresh=true, a re-run); a re-run names the batch
-- it was made from (`rerun_of`). Each chunk counts the phones it stored and how many of them
-- are mobile, so a batch's phones found and mobile share are sums, not a scan of its results.
-- owner: @skiptrace/batches
ALTER TABLE batches ADD COLUMN IF NOT EXISTS name TEXT;
ALTER TABLE batches ADD COLUMN IF NOT EXISTS tags TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE batches ADD COLUMN IF NOT EXISTS fresh BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE batches ADD COLUMN IF NOT EXISTS rerun_of BIGINT;
ALTER TABLE batches ADD COLUMN IF NOT EXISTS phones INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batches ADD COLUMN IF NOT EXISTS mobile INTEGER NOT NULL DEFAULT 0;
-- owner: @skiptrace/batches
ALTER TABLE batch_chunks ADD COLUMN IF NOT EXISTS phones INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batch_chunks ADD COLUMN IF NOT EXISTS mobile INTEGER NOT NULL DEFAULT 0;
