-- Members and roles, one-time member links and the audit log (#28).

-- Every user has a role in their account; the users that exist become owners.
ALTER TABLE users ADD COLUMN IF NOT EXISTS role text NOT NULL DEFAULT 'owner';
ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('owner', 'admin', 'member', 'viewer'));

-- owner: @skiptrace/accounts
-- One-time links an admin hands out: an invitation (the invitee sets a password and becomes
-- a user with `role`) or a password reset (the user `user_id` sets a new one). Only the
-- SHA-256 of the link's token is kept; a link works once (used_at), until expires_at.
CREATE TABLE IF NOT EXISTS member_links (
  id text PRIMARY KEY, -- inv_… / rst_…
  kind text NOT NULL CHECK (kind IN ('invitation', 'password_reset')),
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email text NOT NULL, -- lower-cased
  role text CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
  user_id text REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX IF NOT EXISTS member_links_account_idx ON member_links (account_id, kind);

-- owner: @skiptrace/audit
-- Administrative and data-export actions. Never the data an action touched (no name,
-- address or phone): an erased result's entry stays, its data does not.
CREATE TABLE IF NOT EXISTS audit_log (
  id bigserial PRIMARY KEY,
  account_id text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  action text NOT NULL,
  actor_type text NOT NULL CHECK (actor_type IN ('user', 'client', 'system')),
  actor_id text,
  actor_email text,
  client_id text,
  source_address text,
  target_type text,
  target_id text,
  details jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS audit_log_account_id_idx ON audit_log (account_id, id DESC);
CREATE INDEX IF NOT EXISTS audit_log_at_idx ON audit_log (at);
