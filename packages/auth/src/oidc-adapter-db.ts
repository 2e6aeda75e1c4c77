/**
 * oidc-provider storage adapter over the Database port: table oidc_payloads. Holds every
 * artefact that must outlive a restart (sessions, grants, codes, refresh tokens;
 * oidc-artefacts.ts), on PostgreSQL and on PGlite in the one-process mode. Expired rows are invisible to find() and removed by
 * purgeExpired(), which the auth service runs on a timer.
 * consume() is a conditional UPDATE … RETURNING: of concurrent consumers exactly one marks the
 * row; the others revoke the grant and fail as a reuse (oidc-single-use.ts).
 * Not for: high token throughput on PGlite (one backend runs every statement in turn).
 */
import { textProblem } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { alreadyConsumed, revokesGrantOnReuse, vanished } from './oidc-single-use.ts';

const ALIVE = '(expires_at IS NULL OR expires_at > now())';

export function createDbAdapter(db: Database, name: string): Adapter {
  const findWhere = async (column: string, value: string) => {
    // A value PostgreSQL cannot hold (NUL, a lone surrogate) names no stored artefact.
    if (textProblem(value)) return undefined;
    const { rows } = await db.query<{ payload: AdapterPayload; consumed_at: Date | null }>(
      `SELECT payload, consumed_at FROM oidc_payloads WHERE type = $1 AND ${column} = $2 AND ${ALIVE} LIMIT 1`,
      [name, value],
    );
    const row = rows[0];
    if (!row) return undefined;
    return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
  };
  return {
    async upsert(id, payload, expiresIn) {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      await db.query(
        `INSERT INTO oidc_payloads (id, type, payload, grant_id, uid, user_code, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (type, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
           uid = EXCLUDED.uid, user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
        [
          id,
          name,
          JSON.stringify(payload),
          payload.grantId ?? null,
          payload.uid ?? null,
          payload.userCode ?? null,
          expiresAt,
        ],
      );
    },
    find: (id) => findWhere('id', id),
    findByUid: (uid) => findWhere('uid', uid),
    findByUserCode: (userCode) => findWhere('user_code', userCode),
    async consume(id) {
      const won = await db.query(
        `UPDATE oidc_payloads SET consumed_at = now()
         WHERE type = $1 AND id = $2 AND consumed_at IS NULL AND ${ALIVE} RETURNING id`,
        [name, id],
      );
      if (won.rowCount === 1) return;
      const { rows } = await db.query<{ grant_id: string | null; consumed_at: Date | null }>(
        `SELECT grant_id, consumed_at FROM oidc_payloads WHERE type = $1 AND id = $2 AND ${ALIVE}`,
        [name, id],
      );
      const row = rows[0];
      if (!row?.consumed_at) throw vanished(name);
      if (row.grant_id && revokesGrantOnReuse(name)) await revokeGrant(db, row.grant_id);
      throw alreadyConsumed(name);
    },
    async destroy(id) {
      await db.query('DELETE FROM oidc_payloads WHERE type = $1 AND id = $2', [name, id]);
    },
    async revokeByGrantId(grantId) {
      await db.query('DELETE FROM oidc_payloads WHERE type = $1 AND grant_id = $2', [name, grantId]);
    },
  };
}

/** Deletes every artefact issued under the grant and the grant itself (oidc-provider's revoke()). */
async function revokeGrant(db: Database, grantId: string): Promise<void> {
  await db.query(`DELETE FROM oidc_payloads WHERE grant_id = $1 OR (type = 'Grant' AND id = $1)`, [grantId]);
}

/** Deletes expired artefacts; returns how many. */
export async function purgeExpired(db: Database): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM oidc_payloads WHERE expires_at <= now()');
  return rowCount;
}
