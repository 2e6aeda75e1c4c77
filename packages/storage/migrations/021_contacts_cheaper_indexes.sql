-- Cheaper index maintenance for contacts: most of an import's PostgreSQL time is spent
-- inserting into the indexes (about 5 µs a row for row_hash, 3.5 µs for address_key, out
-- of about 10; see packages/contacts/BENCHMARKS.md). Nothing stored, looked up or
-- deduplicated changes:
--
-- 1. row_hash gets the byte-order ("C") collation. It is base64url and only ever compared
--    for equality (the unique constraint, ON CONFLICT), which is byte equality under every
--    deterministic collation, so the same rows are duplicates as before. Under a
--    language collation (e.g. en-US, libc or ICU) each btree comparison goes through
--    strcoll or ICU; under "C" it is a memcmp: about 1 µs a row of import time less with
--    an ICU en-US database (no difference with C.UTF-8, whose strcoll is already strcmp).
--
-- 2. address_key is indexed by hash instead of btree. It is only looked up by equality
--    (findCandidates: address_key = ANY($1), a bitmap index scan with a hash index), and
--    a hash insert touches one bucket page instead of descending a btree of random keys:
--    about 2 µs a row less. (The lookup's ORDER BY address_key, id sorts its few rows.)
--
-- On an existing table: no table rewrite (text to text is binary compatible); the unique
-- index contacts_row_hash_key is rebuilt and the hash index built. ALTER COLUMN TYPE holds
-- an ACCESS EXCLUSIVE lock on contacts until this file commits, so imports and lookups
-- wait for it (several seconds per million rows): apply it when the store is quiet.
-- The btree is dropped first so that the collation change does not rebuild it for nothing.
DROP INDEX IF EXISTS contacts_address_key_idx;

ALTER TABLE contacts ALTER COLUMN row_hash TYPE text COLLATE "C";

CREATE INDEX IF NOT EXISTS contacts_address_key_hash_idx ON contacts USING hash (address_key);
