-- Each chunk counts the outcomes it stored in its own batch_chunks row, so chunks of one
-- batch store in parallel: none updates the batches row (whose lock they take in share
-- mode only). A batch's counters are its batches row (what erasers, cancels and fails
-- counted) plus the sum over its chunks (packages/batches BATCH_FROM); its updated_at the
-- later of the row's and its last chunk's stored_at.
ALTER TABLE batch_chunks ADD COLUMN IF NOT EXISTS processed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batch_chunks ADD COLUMN IF NOT EXISTS matched INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batch_chunks ADD COLUMN IF NOT EXISTS no_match INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batch_chunks ADD COLUMN IF NOT EXISTS failed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batch_chunks ADD COLUMN IF NOT EXISTS reused INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batch_chunks ADD COLUMN IF NOT EXISTS stored_at TIMESTAMPTZ;
