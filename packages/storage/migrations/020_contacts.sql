-- owner: @skiptrace/contacts
-- Contact store: the people and phones the worker matches properties against.
-- Rows are written by `pnpm skiptrace import` (packages/contacts); see docs/contact-data.md.
CREATE TABLE IF NOT EXISTS contacts (
  id bigserial PRIMARY KEY,
  -- Standardised address matching key (@skiptrace/matching standardizeAddress().key);
  -- the worker's lookup key. unit_key is the secondary unit (apartment, suite), '' when none.
  address_key text NOT NULL,
  unit_key text NOT NULL DEFAULT '',
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  -- Normalised names (case, accents, punctuation folded) for the name scorer.
  first_norm text NOT NULL DEFAULT '',
  last_norm text NOT NULL DEFAULT '',
  street_address text NOT NULL,
  city text NOT NULL,
  state text NOT NULL,
  zip5 text NOT NULL,
  -- [{"number": "+15125550123", "type": "mobile|landline|voip|unknown"}], in file order.
  phones jsonb NOT NULL DEFAULT '[]',
  -- ["owner@example.com", ...], lower-cased.
  emails jsonb NOT NULL DEFAULT '[]',
  -- Where the row came from (file name given to the import).
  source text NOT NULL DEFAULT '',
  -- Hash of the normalised row; makes re-importing the same data a no-op.
  row_hash text NOT NULL UNIQUE,
  imported_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS contacts_address_key_idx ON contacts (address_key);

-- Operator-imported suppression lists (National DNC registry, known TCPA litigators).
CREATE TABLE IF NOT EXISTS suppression (
  kind text NOT NULL CHECK (kind IN ('dnc', 'litigator')),
  -- E.164, e.g. +15125550123.
  number text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, number)
);
