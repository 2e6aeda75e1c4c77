-- Batch rows erased (DELETE /plants/{id}) while still waiting for their trace: the eraser
-- counts them in `processed` and here, so that processed + rejected still reaches total
-- (packages/core deleteProperty). processed = matched + no_match + failed + erased.
ALTER TABLE batches ADD COLUMN IF NOT EXISTS erased INTEGER NOT NULL DEFAULT 0;
