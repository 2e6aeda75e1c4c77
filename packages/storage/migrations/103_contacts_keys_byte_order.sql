-- owner: @skiptrace/contacts
-- The byte-order ("C") collation for the contact columns that are indexed and only ever
-- compared for equality: address_key, zip5, state and city (the blocking indexes of
-- 022_contacts_blocking.sql and the address_key hash index). As for row_hash in
-- 021_contacts_cheaper_indexes.sql, nothing found, stored or deduplicated changes:
--
-- * equality is byte equality under every deterministic collation, and the values are
--   ASCII by construction (@skiptrace/matching folds addresses to A–Z, 0–9, '#', '/', '-',
--   space and '|'), so even their order is the same as under C.UTF-8;
-- * a lookup compares these columns with parameters of the default collation, and a
--   column's collation wins over the default one, so the lookups still use the indexes.
--
-- What it saves: building and maintaining the two blocking btrees sorts and compares
-- every row's (zip5, house number) and (state, city, house number). Under a language
-- collation, even C.UTF-8 on PostgreSQL 15, each comparison goes through strcoll and the
-- sort cannot use abbreviated keys; under "C" it is a memcmp. Building them after an
-- import of 600,000 rows into an empty store took 1.4 + 1.9 s of one core before and
-- 0.85 + 1.2 s after (docs/benchmarks-history.md, note 7); row-by-row inserts save likewise.
--
-- On an existing table: no table rewrite (text to text is binary compatible); the three
-- indexes on these columns are rebuilt while an ACCESS EXCLUSIVE lock on contacts is
-- held until this file commits (several seconds per million rows): apply it when the
-- store is quiet.
ALTER TABLE contacts
  ALTER COLUMN address_key TYPE text COLLATE "C",
  ALTER COLUMN zip5 TYPE text COLLATE "C",
  ALTER COLUMN state TYPE text COLLATE "C",
  ALTER COLUMN city TYPE text COLLATE "C";
