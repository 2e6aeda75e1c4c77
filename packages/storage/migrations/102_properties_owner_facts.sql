-- The owner model on skip-trace requests (ADR 0010): the request's optional owner mailing
-- address and parcel number, and the outcome's per-property facts — the owners of record
-- and the mailing address the trace used ({"owners_of_record": [...], "mailing_address": {...}}),
-- NULL when the trace had neither. ADD COLUMN without a default rewrites nothing.
ALTER TABLE properties ADD COLUMN IF NOT EXISTS mailing_address jsonb;
ALTER TABLE properties ADD COLUMN IF NOT EXISTS apn text;
ALTER TABLE properties ADD COLUMN IF NOT EXISTS owner_facts jsonb;
ALTER TABLE batch_results ADD COLUMN IF NOT EXISTS owner_facts json;
