-- Who is receiving an upload (#22 item 9): the receiving process and its last heartbeat
-- (packages/batches/src/upload-lease.ts). The batch sweep ends an upload whose owner stopped
-- heartbeating (its process died) and never one by its age, so a live slow upload is never cut.
ALTER TABLE batches ADD COLUMN IF NOT EXISTS upload_owner TEXT;
ALTER TABLE batches ADD COLUMN IF NOT EXISTS upload_heartbeat_at TIMESTAMPTZ;
