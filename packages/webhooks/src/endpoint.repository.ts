import type { Sql } from '@skiptrace/storage';
import type { WebhookEndpoint, WebhookEndpointWithSecret } from '@skiptrace/contracts';
import { randomId } from './signing.ts';

/** SQL for webhook_endpoints. Every read and write a caller can reach is scoped by account. */
export interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  events: string[] | null;
  enabled: boolean;
  disabled_reason: 'manual' | 'gone' | 'failing' | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function endpointView(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEndpoint['events'],
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    failing_since: iso(row.failing_since),
    previous_secret_expires_at: iso(row.previous_secret_expires_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export const endpointWithSecret = (row: EndpointRow): WebhookEndpointWithSecret => ({
  ...endpointView(row),
  secret: row.secret,
});

export interface NewEndpoint {
  accountId: string;
  url: string;
  events: string[] | null;
  description: string | null;
  secret: string;
}

export async function insertEndpoint(sql: Sql, e: NewEndpoint): Promise<EndpointRow> {
  const { rows } = await sql.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, account_id, url, events, description, secret)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [randomId('ep'), e.accountId, e.url, e.events, e.description, e.secret],
  );
  return rows[0]!;
}

export async function listEndpoints(sql: Sql, accountId: string): Promise<EndpointRow[]> {
  const { rows } = await sql.query<EndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at, id',
    [accountId],
  );
  return rows;
}

export async function findEndpoint(sql: Sql, accountId: string, id: string): Promise<EndpointRow | undefined> {
  const { rows } = await sql.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = $1 AND account_id = $2', [
    id,
    accountId,
  ]);
  return rows[0];
}

export interface EndpointChanges {
  url?: string;
  events?: string[] | null;
  description?: string | null;
  enabled?: boolean;
}

export async function updateEndpoint(
  sql: Sql,
  accountId: string,
  id: string,
  c: EndpointChanges,
): Promise<EndpointRow | undefined> {
  // $n IS NULL cannot tell "absent" from "set to null", so each nullable field has a flag.
  const { rows } = await sql.query<EndpointRow>(
    `UPDATE webhook_endpoints SET
       url = COALESCE($3, url),
       events = CASE WHEN $4 THEN $5::text[] ELSE events END,
       description = CASE WHEN $6 THEN $7 ELSE description END,
       enabled = COALESCE($8, enabled),
       disabled_reason = CASE WHEN $8 IS NULL THEN disabled_reason WHEN $8 THEN NULL ELSE 'manual' END,
       failing_since = CASE WHEN $8 THEN NULL ELSE failing_since END,
       updated_at = now()
     WHERE id = $1 AND account_id = $2 RETURNING *`,
    [
      id,
      accountId,
      c.url ?? null,
      c.events !== undefined,
      c.events ?? null,
      c.description !== undefined,
      c.description ?? null,
      c.enabled ?? null,
    ],
  );
  return rows[0];
}

export async function deleteEndpoint(sql: Sql, accountId: string, id: string): Promise<boolean> {
  const { rowCount } = await sql.query('DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2', [
    id,
    accountId,
  ]);
  return rowCount > 0;
}

/** The current secret becomes the previous one and keeps signing until overlapUntil. */
export async function rotateSecret(
  sql: Sql,
  accountId: string,
  id: string,
  secret: string,
  overlapUntil: Date,
): Promise<EndpointRow | undefined> {
  const { rows } = await sql.query<EndpointRow>(
    `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = $4,
       secret = $3, updated_at = now()
     WHERE id = $1 AND account_id = $2 RETURNING *`,
    [id, accountId, secret, overlapUntil],
  );
  return rows[0];
}

/** Called after every failed attempt: starts the failure streak, disables past the window. */
export async function markFailure(sql: Sql, id: string, now: Date, disableBefore: Date) {
  const { rows } = await sql.query<{ enabled: boolean; disabled_reason: string | null }>(
    `UPDATE webhook_endpoints SET
       failing_since = COALESCE(failing_since, $2),
       enabled = enabled AND COALESCE(failing_since, $2) > $3,
       disabled_reason = CASE WHEN enabled AND COALESCE(failing_since, $2) <= $3 THEN 'failing' ELSE disabled_reason END,
       updated_at = CASE WHEN enabled AND COALESCE(failing_since, $2) <= $3 THEN now() ELSE updated_at END
     WHERE id = $1 RETURNING enabled, disabled_reason`,
    [id, now, disableBefore],
  );
  return rows[0];
}

export async function markSuccess(sql: Sql, id: string): Promise<void> {
  await sql.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', [
    id,
  ]);
}

export async function markGone(sql: Sql, id: string): Promise<void> {
  await sql.query(
    `UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'gone', updated_at = now() WHERE id = $1`,
    [id],
  );
}
