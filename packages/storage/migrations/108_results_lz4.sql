-- Alters batch_results (@skiptrace/batches) and properties (@skiptrace/core); creates nothing.
-- The stored results documents (a batch row's in batch_results, a synchronous trace's in
-- properties) compressed with lz4 instead of pglz where the server has it. With the owner
-- model a row's results carry histories, dated phones and the residents beside the owner:
-- about 2.3 kB of JSON, over the 2 kB at which PostgreSQL compresses a value, and pglz cost
-- the batch's insert about twice lz4's CPU (docs/benchmarks-history.md, note 5). A catalog change
-- only: values already stored keep their compression, and lz4 ones read back on any
-- server built with lz4. PGlite and servers built without lz4 keep pglz.
DO $$
BEGIN
  ALTER TABLE batch_results ALTER COLUMN results SET COMPRESSION lz4;
  ALTER TABLE properties ALTER COLUMN results SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
