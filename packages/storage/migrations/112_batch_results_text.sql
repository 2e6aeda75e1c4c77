-- owner: @skiptrace/batches
-- A batch row's stored results and owner facts as text, not json. The documents are written
-- by the chunk worker's JSON.stringify (or copied from a stored result) and are never queried
-- inside but to count a reused result's phones; json made PostgreSQL lex every document on
-- its way in, to check what JSON.stringify already guarantees: with the owner model's ~2 kB
-- documents about 6–9 µs of the database's CPU a row (200,000 rows COPYed with lz4: json
-- 3.56–4.46 s, text 2.31–2.68 s; docs/benchmarks-history.md note 5). Readers that need JSON cast
-- (`::json`, `::jsonb`); the exports pass the text through. The change rewrites the table once.
ALTER TABLE batch_results
  ALTER COLUMN results TYPE text USING results::text,
  ALTER COLUMN owner_facts TYPE text USING owner_facts::text;
-- As migration 108: lz4 where the server has it (the rewrite keeps the column's setting, this
-- makes sure of it), pglz elsewhere.
DO $$
BEGIN
  ALTER TABLE batch_results ALTER COLUMN results SET COMPRESSION lz4;
  ALTER TABLE batch_results ALTER COLUMN owner_facts SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
