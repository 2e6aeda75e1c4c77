import type { Sql } from '@skiptrace/storage';
import type { WebhookAttempt, WebhookDelivery } from '@skiptrace/contracts';
import { randomId } from './signing.ts';

/** SQL behind the operator side of the API: delivery views, replay, recover, test events. */
interface MessageRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: WebhookDelivery['status'];
  attempt_count: number;
  next_attempt_at: Date | null;
  created_at: Date;
}

interface AttemptRow {
  message_id: string;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
  trigger: WebhookAttempt['trigger'];
}

const MESSAGE_COLUMNS = 'id, endpoint_id, event_id, event_type, status, attempt_count, next_attempt_at, created_at';

async function withAttempts(sql: Sql, messages: MessageRow[]): Promise<WebhookDelivery[]> {
  if (messages.length === 0) return [];
  const { rows } = await sql.query<AttemptRow>(
    `SELECT message_id, attempted_at, status_code, duration_ms, response_body, error, trigger
     FROM webhook_attempts WHERE message_id = ANY($1::text[]) ORDER BY attempted_at, id`,
    [messages.map((m) => m.id)],
  );
  return messages.map((m) => ({
    id: m.id,
    endpoint_id: m.endpoint_id,
    event_id: m.event_id,
    event_type: m.event_type,
    status: m.status,
    attempt_count: m.attempt_count,
    next_attempt_at: m.status === 'pending' && m.next_attempt_at ? m.next_attempt_at.toISOString() : null,
    created_at: m.created_at.toISOString(),
    attempts: rows
      .filter((a) => a.message_id === m.id)
      .map((a) => ({
        attempted_at: a.attempted_at.toISOString(),
        status_code: a.status_code,
        duration_ms: a.duration_ms,
        response_body: a.response_body,
        error: a.error,
        trigger: a.trigger,
      })),
  }));
}

export async function listDeliveries(
  sql: Sql,
  endpointId: string,
  q: { limit: number; status?: string | undefined },
): Promise<WebhookDelivery[]> {
  const { rows } = await sql.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM webhook_messages
     WHERE endpoint_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY created_at DESC, id LIMIT $3`,
    [endpointId, q.status ?? null, q.limit],
  );
  return withAttempts(sql, rows);
}

export async function findDelivery(sql: Sql, accountId: string, id: string): Promise<WebhookDelivery | undefined> {
  const { rows } = await sql.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM webhook_messages WHERE id = $1 AND account_id = $2`,
    [id, accountId],
  );
  return (await withAttempts(sql, rows))[0];
}

export type ReplayResult = 'not_found' | 'in_flight' | 'endpoint_disabled' | { endpointId: string };

/**
 * Due now, same id (so the same webhook-id). A failed or delivered message gets one
 * manual attempt; a pending one is just pulled forward and keeps its retry schedule.
 */
export async function replayMessage(sql: Sql, accountId: string, id: string, now: Date): Promise<ReplayResult> {
  const { rows } = await sql.query<{ endpoint_id: string; enabled: boolean; leased: boolean }>(
    `SELECT m.endpoint_id, e.enabled, (m.status = 'pending' AND m.lease_until > $3) AS leased
     FROM webhook_messages m JOIN webhook_endpoints e ON e.id = m.endpoint_id
     WHERE m.id = $1 AND m.account_id = $2`,
    [id, accountId, now],
  );
  const row = rows[0];
  if (!row) return 'not_found';
  if (!row.enabled) return 'endpoint_disabled';
  if (row.leased) return 'in_flight';
  const updated = await sql.query(
    `UPDATE webhook_messages SET manual = (status <> 'pending'), status = 'pending', next_attempt_at = $2,
       updated_at = now()
     WHERE id = $1 AND NOT (status = 'pending' AND lease_until > $2)`,
    [id, now],
  );
  return updated.rowCount === 0 ? 'in_flight' : { endpointId: row.endpoint_id };
}

/** Manual re-send of every failed message of the endpoint created since `since`. */
export async function recoverFailed(sql: Sql, endpointId: string, since: Date, now: Date): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `UPDATE webhook_messages SET status = 'pending', manual = true, next_attempt_at = $3, updated_at = now()
     WHERE endpoint_id = $1 AND status = 'failed' AND created_at >= $2 RETURNING id`,
    [endpointId, since, now],
  );
  return rows.map((r) => r.id);
}

export async function insertTestMessage(
  sql: Sql,
  e: { endpointId: string; accountId: string; eventType: string; payload: string; now: Date },
): Promise<string> {
  const id = randomId('msg');
  await sql.query(
    `INSERT INTO webhook_messages (id, endpoint_id, account_id, event_id, event_type, payload, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, e.endpointId, e.accountId, randomId('test'), e.eventType, e.payload, e.now],
  );
  return id;
}
