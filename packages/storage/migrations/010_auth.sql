-- owner: @skiptrace/accounts
-- Auth service: tenants (accounts), users, OAuth clients, signing keys and the
-- oidc-provider artefacts of the one-process mode (production keeps those in Redis).

CREATE TABLE IF NOT EXISTS accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS users (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  email text NOT NULL UNIQUE, -- stored lower-cased
  password_hash text NOT NULL, -- scrypt$N$r$p$salt$hash (base64url)
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS users_account_id_idx ON users (account_id);

CREATE TABLE IF NOT EXISTS clients (
  client_id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  secret_hash text, -- null for public clients (token_endpoint_auth_method none)
  name text NOT NULL,
  grant_types text[] NOT NULL,
  redirect_uris text[] NOT NULL DEFAULT '{}',
  scopes text NOT NULL, -- space-separated API scopes the client may obtain
  metadata jsonb NOT NULL DEFAULT '{}', -- remaining RFC 7591 metadata
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS clients_account_id_idx ON clients (account_id);

-- owner: @skiptrace/auth
-- Private signing JWKs shared by all replicas when no AUTH_SIGNING_KEYS are configured.
-- activate_at: before it the key is published in the JWKS but not used for signing.
CREATE TABLE IF NOT EXISTS auth_signing_keys (
  kid text PRIMARY KEY,
  jwk jsonb NOT NULL,
  activate_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS oidc_payloads (
  id text NOT NULL,
  type text NOT NULL, -- oidc-provider model name (Session, Grant, RefreshToken, ...)
  payload jsonb NOT NULL,
  grant_id text,
  uid text,
  user_code text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (type, id)
);
CREATE INDEX IF NOT EXISTS oidc_payloads_grant_id_idx ON oidc_payloads (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS oidc_payloads_uid_idx ON oidc_payloads (uid) WHERE uid IS NOT NULL;
CREATE INDEX IF NOT EXISTS oidc_payloads_user_code_idx ON oidc_payloads (user_code) WHERE user_code IS NOT NULL;
CREATE INDEX IF NOT EXISTS oidc_payloads_expires_at_idx ON oidc_payloads (expires_at);
