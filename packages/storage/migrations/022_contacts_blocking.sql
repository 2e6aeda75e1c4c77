-- Blocking keys for matching v2 (docs/matching.md): a query finds candidates not only at
-- its exact address key but also
--   * at the same ZIP5 and house number (a misspelt or differently written street), and
--   * at the same state, city and house number (a wrong or mistyped ZIP).
-- The house number is the first field of address_key (NUMBER|STREET|ZIP5), indexed as an
-- expression so the import writes nothing new. findCandidates (packages/contacts) probes
-- these indexes once per query from a LATERAL subquery with a LIMIT, so the plan is an
-- index scan per query whether or not the table has statistics yet.
--
-- Two btree inserts per imported row more (see packages/contacts/BENCHMARKS.md). On an
-- existing table each CREATE INDEX reads the table once and blocks writes (not reads)
-- while it builds.
CREATE INDEX IF NOT EXISTS contacts_zip_number_idx ON contacts (zip5, (split_part(address_key, '|', 1)));

CREATE INDEX IF NOT EXISTS contacts_city_number_idx
  ON contacts (state, city, (split_part(address_key, '|', 1)));
