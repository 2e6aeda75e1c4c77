import type { Sql } from '@skiptrace/storage';
import { randomId } from './signing.ts';

/** SQL for webhook_messages and webhook_attempts, the durable side of delivery. */
export interface LeasedMessage {
  id: string;
  endpoint_id: string;
  event_type: string;
  payload: string;
  attempt_count: number;
  manual: boolean;
  url: string;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
}

export interface MessageState {
  id: string;
  status: string;
  next_attempt_at: Date | null;
  lease_until: Date | null;
}

/** Schedule member: endpoint id travels with the message id so caps apply before any SQL. */
export const member = (messageId: string, endpointId: string) => `${messageId}@${endpointId}`;
export function parseMember(value: string): { messageId: string; endpointId: string } {
  const at = value.indexOf('@');
  return { messageId: value.slice(0, at), endpointId: value.slice(at + 1) };
}

/**
 * Stores one message per matching enabled endpoint; a redelivered event inserts nothing.
 * Returns every not-yet-attempted pending message of the event (new or left unscheduled
 * by a crash), which the caller (re)schedules — the lease makes that harmless.
 */
export async function fanOut(
  sql: Sql,
  e: { eventId: string; accountId: string; eventType: string; payload: string; now: Date },
): Promise<{ id: string; endpoint_id: string }[]> {
  const endpoints = await sql.query<{ id: string }>(
    `SELECT id FROM webhook_endpoints
     WHERE account_id = $1 AND enabled AND (events IS NULL OR $2 = ANY(events))`,
    [e.accountId, e.eventType],
  );
  if (endpoints.rows.length > 0) {
    const ids = endpoints.rows.map(() => randomId('msg'));
    await sql.query(
      `INSERT INTO webhook_messages (id, endpoint_id, account_id, event_id, event_type, payload, next_attempt_at)
       SELECT m, ep, $3, $4, $5, $6, $7 FROM unnest($1::text[], $2::text[]) AS t(m, ep)
       ON CONFLICT (event_id, endpoint_id) DO NOTHING`,
      [ids, endpoints.rows.map((r) => r.id), e.accountId, e.eventId, e.eventType, e.payload, e.now],
    );
  }
  const { rows } = await sql.query<{ id: string; endpoint_id: string }>(
    `SELECT id, endpoint_id FROM webhook_messages
     WHERE event_id = $1 AND status = 'pending' AND attempt_count = 0 AND lease_until IS NULL`,
    [e.eventId],
  );
  return rows;
}

/** Takes ownership of due pending messages until leaseUntil; others' leases are respected. */
export async function leaseMessages(sql: Sql, ids: string[], now: Date, leaseUntil: Date): Promise<LeasedMessage[]> {
  const { rows } = await sql.query<LeasedMessage>(
    `UPDATE webhook_messages m SET lease_until = $3
     FROM webhook_endpoints e
     WHERE m.id = ANY($1::text[]) AND e.id = m.endpoint_id AND m.status = 'pending'
       AND (m.lease_until IS NULL OR m.lease_until <= $2)
       AND (m.next_attempt_at IS NULL OR m.next_attempt_at <= $2)
     RETURNING m.id, m.endpoint_id, m.event_type, m.payload, m.attempt_count, m.manual,
       e.url, e.enabled, e.secret, e.previous_secret, e.previous_secret_expires_at, e.failing_since`,
    [ids, now, leaseUntil],
  );
  return rows;
}

export async function messageStates(sql: Sql, ids: string[]): Promise<MessageState[]> {
  const { rows } = await sql.query<MessageState>(
    'SELECT id, status, next_attempt_at, lease_until FROM webhook_messages WHERE id = ANY($1::text[])',
    [ids],
  );
  return rows;
}

export interface AttemptOutcome {
  messageId: string;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
  trigger: 'scheduled' | 'manual';
  /** Message status after this attempt, and when the next one is due (pending only). */
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: Date | null;
}

/** Gives up on a message without an attempt (its endpoint was disabled or deleted meanwhile). */
export async function failWithoutAttempt(sql: Sql, messageId: string): Promise<void> {
  await sql.query(
    `UPDATE webhook_messages SET status = 'failed', next_attempt_at = NULL, lease_until = NULL, updated_at = now()
     WHERE id = $1`,
    [messageId],
  );
}

/** Pending messages for start-up reconciliation, in pages (keyset on id). */
export async function pendingPage(sql: Sql, afterId: string, limit: number) {
  const { rows } = await sql.query<MessageState & { endpoint_id: string }>(
    `SELECT id, endpoint_id, status, next_attempt_at, lease_until FROM webhook_messages
     WHERE status = 'pending' AND id > $1 ORDER BY id LIMIT $2`,
    [afterId, limit],
  );
  return rows;
}
