-- owner: @skiptrace/contacts
-- A contact row's phones and e-mails as json (the text as the import wrote it, checked to be
-- JSON) instead of jsonb (a parsed binary form). Nothing queries inside them but the lookup's
-- suppression check, which lists a few rows' numbers (json_array_elements); every lookup reads
-- them out whole and every import writes them, and jsonb costs at both ends: its input builds
-- and sorts a tree per row, its output prints it back. 600,000 rows of two dated phones on the
-- project's VM (COPY of the two columns alone, then reading them as text): jsonb 2.06 s in and
-- 0.45 s out, json 1.06–1.15 s in and 0.16 s out (docs/benchmarks-history.md note 7).
-- The change rewrites the table once (an ACCESS EXCLUSIVE lock for as long as that takes: about
-- a second per million rows here); the values read back the same (JSON.parse of either text).
ALTER TABLE contacts ALTER COLUMN phones DROP DEFAULT, ALTER COLUMN emails DROP DEFAULT;
ALTER TABLE contacts
  ALTER COLUMN phones TYPE json USING phones::json,
  ALTER COLUMN emails TYPE json USING emails::json;
ALTER TABLE contacts ALTER COLUMN phones SET DEFAULT '[]'::json, ALTER COLUMN emails SET DEFAULT '[]'::json;
