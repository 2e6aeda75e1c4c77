-- owner: @skiptrace/webhooks
-- Webhook subscriptions, one durable message per (event, endpoint), and the attempt log.
-- Redis holds only the delivery schedule (message ids); it is rebuilt from
-- webhook_messages WHERE status = 'pending' when the dispatcher starts.

CREATE TABLE IF NOT EXISTS webhook_endpoints (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  url text NOT NULL,
  description text,
  -- NULL: every event type
  events text[],
  enabled boolean NOT NULL DEFAULT true,
  -- manual | gone (410) | failing (auto-disabled)
  disabled_reason text,
  -- whsec_<base64>; the previous one keeps signing until previous_secret_expires_at
  secret text NOT NULL,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  -- first failure of the current streak; cleared by any success
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS webhook_endpoints_account_idx ON webhook_endpoints (account_id, created_at);

CREATE TABLE IF NOT EXISTS webhook_messages (
  -- msg_<random>: the webhook-id header, stable across retries and replays
  id text PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  account_id text NOT NULL,
  -- bus messageId of the event (or test_<random> for test events)
  event_id text NOT NULL,
  event_type text NOT NULL,
  -- the exact bytes that are signed and sent (text, not jsonb, so key order is kept)
  payload text NOT NULL,
  -- pending | delivered | failed
  status text NOT NULL DEFAULT 'pending',
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  -- a dispatcher owns the message until then (no two deliver it concurrently)
  lease_until timestamptz,
  -- a replay/recover: one attempt, no automatic retries
  manual boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT webhook_messages_event_endpoint_key UNIQUE (event_id, endpoint_id)
);

CREATE INDEX IF NOT EXISTS webhook_messages_pending_idx ON webhook_messages (id) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS webhook_messages_endpoint_idx ON webhook_messages (endpoint_id, created_at DESC);

CREATE TABLE IF NOT EXISTS webhook_attempts (
  id bigserial PRIMARY KEY,
  message_id text NOT NULL REFERENCES webhook_messages (id) ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  -- first 2 KiB of the response body
  response_body text,
  error text,
  -- scheduled | manual
  trigger text NOT NULL
);

CREATE INDEX IF NOT EXISTS webhook_attempts_message_idx ON webhook_attempts (message_id, attempted_at);
