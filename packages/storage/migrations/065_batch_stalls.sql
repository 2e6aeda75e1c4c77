-- Batches never stall silently (packages/batches sweep): how often each chunk was handed to
-- the broker, and why a batch that could not progress was failed.
ALTER TABLE batch_chunks ADD COLUMN IF NOT EXISTS dispatches INTEGER NOT NULL DEFAULT 1;
ALTER TABLE batches ADD COLUMN IF NOT EXISTS error TEXT;
