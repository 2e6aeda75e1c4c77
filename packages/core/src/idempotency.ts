import { createHash } from 'node:crypto';
import { ApiError } from '@skiptrace/runtime';
import type { Sql } from '@skiptrace/storage';

/** Idempotency-Key: 1–200 printable ASCII characters, as most payment APIs accept. */
const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_parameter', 'Idempotency-Key must be 1-200 printable ASCII characters');
  }
  return key;
}

export const requestHash = (body: unknown): string => createHash('sha256').update(JSON.stringify(body)).digest('hex');

/**
 * Returns the property id an earlier request with this key created, or undefined when
 * the key is new. The same key with a different body is a 409 idempotency_conflict.
 */
export async function findIdempotent(
  sql: Sql,
  accountId: string,
  key: string,
  hash: string,
): Promise<string | undefined> {
  const { rows } = await sql.query<{ request_hash: string; property_id: string }>(
    `SELECT request_hash, property_id FROM idempotency_keys
     WHERE account_id = $1 AND key = $2 AND created_at > now() - interval '24 hours'`,
    [accountId, key],
  );
  const row = rows[0];
  if (!row) return undefined;
  if (row.request_hash !== hash) {
    throw new ApiError('idempotency_conflict', 'Idempotency-Key was already used with a different request body');
  }
  return String(row.property_id);
}

/** Records the key; false when a concurrent request with the same key won the race. */
export async function rememberIdempotent(
  sql: Sql,
  accountId: string,
  key: string,
  hash: string,
  propertyId: string,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `INSERT INTO idempotency_keys (account_id, key, request_hash, property_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash,
       property_id = EXCLUDED.property_id, created_at = now()
     WHERE idempotency_keys.created_at <= now() - interval '24 hours'`,
    [accountId, key, hash, propertyId],
  );
  return rowCount > 0;
}
