-- Address-only queries return at most TRACE_MAX_PEOPLE people (docs/matching.md §5). When
-- more matched, or the address holds more contacts than one query compares, the result says
-- so: people_total is how many matched, NULL when `results` is everyone (the API's
-- `truncated` is people_total IS NOT NULL). Nullable, so rows and replicas from before it work.
ALTER TABLE properties ADD COLUMN IF NOT EXISTS people_total INTEGER;
