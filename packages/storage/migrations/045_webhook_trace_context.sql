-- The W3C traceparent of the event a webhook message was fanned out from, so its delivery
-- attempts (later, from the schedule, in any dispatcher) join the request's trace.
ALTER TABLE webhook_messages ADD COLUMN IF NOT EXISTS traceparent TEXT;
