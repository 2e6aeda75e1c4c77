import { prepared, type Sql } from '@skiptrace/storage';
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
  /** W3C traceparent of the event's trace, when it had one. */
  traceparent: string | null;
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

export interface FanOutEvent {
  eventId: string;
  accountId: string;
  eventType: string;
  /**
   * The payload as stored and signed, encoded only for an event some endpoint subscribed to;
   * throwing (a payload that is not what its event type promises) fails that event alone.
   */
  payload: () => string;
  now: Date;
  /** W3C traceparent of the span that handled the event. */
  traceparent?: string;
}

export type ScheduledMessage = { id: string; endpoint_id: string };

/**
 * Stores one message per matching enabled endpoint of each event, in at most three
 * statements for the whole list; a redelivered event inserts nothing. Returns, per event,
 * every not-yet-attempted pending message (new or left unscheduled by a crash), which the
 * caller (re)schedules — the lease makes that harmless. An event whose account has no
 * matching enabled endpoint costs only its share of the first query (its payload is never
 * encoded); an event whose payload cannot be encoded gets its error instead, and stores nothing.
 */
const ENABLED_ENDPOINTS = prepared(
  `SELECT id, account_id, events FROM webhook_endpoints WHERE account_id = ANY($1::text[]) AND enabled`,
);

export async function fanOut(sql: Sql, events: FanOutEvent[]): Promise<(ScheduledMessage[] | Error)[]> {
  const { rows: endpoints } = await sql.query<{ id: string; account_id: string; events: string[] | null }>(
    ENABLED_ENDPOINTS,
    [[...new Set(events.map((e) => e.accountId))]],
  );
  const out: (ScheduledMessage[] | Error)[] = events.map(() => []);
  const matched = events.flatMap((e, i) => {
    const to = endpoints.filter(
      (ep) => ep.account_id === e.accountId && (ep.events === null || ep.events.includes(e.eventType)),
    );
    if (to.length === 0) return [];
    let payload: string;
    try {
      payload = e.payload();
    } catch (err) {
      out[i] = err instanceof Error ? err : new Error(String(err));
      return [];
    }
    return to.map((ep) => ({ e, payload, endpointId: ep.id }));
  });
  if (matched.length === 0) return out;
  await sql.query(
    `INSERT INTO webhook_messages (id, endpoint_id, account_id, event_id, event_type, payload, next_attempt_at, traceparent)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[])
     ON CONFLICT (event_id, endpoint_id) DO NOTHING`,
    [
      matched.map(() => randomId('msg')),
      matched.map((m) => m.endpointId),
      matched.map((m) => m.e.accountId),
      matched.map((m) => m.e.eventId),
      matched.map((m) => m.e.eventType),
      matched.map((m) => m.payload),
      matched.map((m) => m.e.now.toISOString()),
      matched.map((m) => m.e.traceparent ?? null),
    ],
  );
  const { rows } = await sql.query<ScheduledMessage & { event_id: string }>(
    `SELECT id, endpoint_id, event_id FROM webhook_messages
     WHERE event_id = ANY($1::text[]) AND status = 'pending' AND attempt_count = 0 AND lease_until IS NULL`,
    [[...new Set(matched.map((m) => m.e.eventId))]],
  );
  events.forEach((e, i) => {
    const scheduled = out[i]!;
    if (scheduled instanceof Error) return;
    for (const row of rows)
      if (row.event_id === e.eventId) scheduled.push({ id: row.id, endpoint_id: row.endpoint_id });
  });
  return out;
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
       e.url, e.enabled, e.secret, e.previous_secret, e.previous_secret_expires_at, e.failing_since, m.traceparent`,
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
