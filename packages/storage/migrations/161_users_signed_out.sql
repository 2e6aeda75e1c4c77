-- owner: @skiptrace/accounts
-- When a user's sign-ins were ended (a password reset): sessions and refresh tokens of an
-- earlier authentication no longer find the user (services/auth findAccount).
ALTER TABLE users ADD COLUMN IF NOT EXISTS signed_out_at timestamptz;
