/**
 * The audit log: administrative and data-export actions of an account, with who (actor,
 * client), when, from where (source address) and on what (target). One table, written by
 * every service that does such an action (the gateway's routers, the OAuth server's sign-in,
 * the quota settings); read by GET /api/v1/audit; swept by age (AUDIT_RETENTION_DAYS).
 *
 * An entry holds ids, roles, formats and counts only — never a name, address or phone — so
 * an erasure keeps its audit entry but not the erased data.
 */
import type { AuditAction, AuditEntry } from '@skiptrace/contracts';
import type { AuthContext } from '@skiptrace/runtime';
import type { Sql } from '@skiptrace/storage';
import type { Request } from 'express';

export interface AuditActor {
  type: 'user' | 'client' | 'system';
  /** User id or client id; absent for the system. */
  id?: string;
  /** The user's email (an actor that is a user). */
  email?: string;
}

export interface AuditRecord {
  accountId: string;
  action: AuditAction;
  actor: AuditActor;
  /** The OAuth client the actor used. */
  clientId?: string;
  sourceAddress?: string;
  target?: { type: string; id?: string };
  /** Ids, roles, formats, counts: never personal data of a result. */
  details?: Record<string, unknown>;
}

export interface AuditFilters {
  /** User id, client id or user email. */
  actor?: string;
  action?: AuditAction;
  from?: Date;
  to?: Date;
  /** Entries with an id below this one (keyset paging, newest first). */
  beforeId?: string;
  limit: number;
}

/** The fields of a request an entry takes: the token's actor and client, the source address. */
export type AuditContext = Pick<AuditRecord, 'accountId' | 'actor' | 'clientId' | 'sourceAddress'>;

/** Who made an authenticated API request: a user (token with a role) or an API client. */
export function actorOf(auth: AuthContext): AuditActor {
  if (auth.subject === auth.clientId) return { type: 'client', id: auth.clientId };
  return { type: 'user', id: auth.subject, ...(auth.email ? { email: auth.email } : {}) };
}

/** The audit context of an authenticated API request (after the bearer check). */
export function auditContext(req: Request): AuditContext {
  const auth = req.auth!;
  return {
    accountId: auth.accountId,
    actor: actorOf(auth),
    clientId: auth.clientId,
    ...(req.ip ? { sourceAddress: req.ip } : {}),
  };
}

interface AuditRow {
  id: string;
  at: Date;
  action: AuditAction;
  actor_type: AuditActor['type'];
  actor_id: string | null;
  actor_email: string | null;
  client_id: string | null;
  source_address: string | null;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
}

const toEntry = (r: AuditRow): AuditEntry => ({
  id: r.id,
  at: r.at.toISOString(),
  action: r.action,
  actor: { type: r.actor_type, id: r.actor_id, email: r.actor_email },
  client_id: r.client_id,
  source_address: r.source_address,
  target: r.target_type === null ? null : { type: r.target_type, id: r.target_id },
  details: r.details,
});

export function createAuditLog(db: Sql) {
  /** Writes one entry; pass a transaction's Sql to record it with the change it describes. */
  async function record(entry: AuditRecord, sql: Sql = db): Promise<void> {
    await sql.query(
      `INSERT INTO audit_log (account_id, action, actor_type, actor_id, actor_email, client_id, source_address,
         target_type, target_id, details)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        entry.accountId,
        entry.action,
        entry.actor.type,
        entry.actor.id ?? null,
        entry.actor.email ?? null,
        entry.clientId ?? null,
        entry.sourceAddress ?? null,
        entry.target?.type ?? null,
        entry.target?.id ?? null,
        entry.details ?? {},
      ],
    );
  }

  /** The account's entries matching the filters, newest first. */
  async function list(accountId: string, filters: AuditFilters): Promise<AuditEntry[]> {
    const where = ['account_id = $1'];
    const params: unknown[] = [accountId];
    const add = (clause: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(clause(`$${params.length}`));
    };
    if (filters.actor) add((n) => `(actor_id = ${n} OR actor_email = lower(${n}) OR client_id = ${n})`, filters.actor);
    if (filters.action) add((n) => `action = ${n}`, filters.action);
    if (filters.from) add((n) => `at >= ${n}`, filters.from);
    if (filters.to) add((n) => `at < ${n}`, filters.to);
    if (filters.beforeId) add((n) => `id < ${n}`, filters.beforeId);
    params.push(filters.limit);
    const { rows } = await db.query<AuditRow>(
      `SELECT id, at, action, actor_type, actor_id, actor_email, client_id, source_address, target_type, target_id,
         details
       FROM audit_log WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(toEntry);
  }

  /** Deletes entries older than retentionDays (0: keeps everything); returns how many. */
  async function sweep(retentionDays: number, now = new Date()): Promise<number> {
    if (retentionDays <= 0) return 0;
    const before = new Date(now.getTime() - retentionDays * 86_400_000);
    const { rowCount } = await db.query('DELETE FROM audit_log WHERE at < $1', [before]);
    return rowCount;
  }

  return { record, list, sweep };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
