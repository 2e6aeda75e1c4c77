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
 * The Idempotency-Keys of one kind of request (a table of account_id, key, request_hash, the
 * created id and created_at): a key holds for 24 hours, per account.
 */
export interface IdempotencyStore {
  /** Whether the key was used in the last 24 hours, whatever the request. */
  inUse(sql: Sql, accountId: string, key: string): Promise<boolean>;
  /**
   * The id an earlier request with this key created, or undefined when the key is new. The
   * same key with a different request is a 409 idempotency_conflict.
   */
  find(sql: Sql, accountId: string, key: string, hash: string): Promise<string | undefined>;
  /** Records the key; false when a concurrent request with the same key won the race. */
  remember(sql: Sql, accountId: string, key: string, hash: string, id: string): Promise<boolean>;
}

/** The store of keys in `table`, whose created id is in `idColumn` (names from the package owning the table). */
export function idempotencyStore(table: string, idColumn: string): IdempotencyStore {
  const live = `account_id = $1 AND key = $2 AND created_at > now() - interval '24 hours'`;
  return {
    async inUse(sql, accountId, key) {
      const { rows } = await sql.query(`SELECT 1 FROM ${table} WHERE ${live}`, [accountId, key]);
      return rows.length > 0;
    },
    async find(sql, accountId, key, hash) {
      const { rows } = await sql.query<{ request_hash: string; id: string }>(
        `SELECT request_hash, ${idColumn} AS id FROM ${table} WHERE ${live}`,
        [accountId, key],
      );
      const row = rows[0];
      if (!row) return undefined;
      if (row.request_hash !== hash) {
        throw new ApiError('idempotency_conflict', 'Idempotency-Key was already used with a different request body');
      }
      return String(row.id);
    },
    async remember(sql, accountId, key, hash, id) {
      const { rowCount } = await sql.query(
        `INSERT INTO ${table} (account_id, key, request_hash, ${idColumn}) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash,
           ${idColumn} = EXCLUDED.${idColumn}, created_at = now()
         WHERE ${table}.created_at <= now() - interval '24 hours'`,
        [accountId, key, hash, id],
      );
      return rowCount > 0;
    },
  };
}

/** The keys of POST /property/skiptrace: the property each created. */
export const propertyIdempotency = idempotencyStore('idempotency_keys', 'property_id');
