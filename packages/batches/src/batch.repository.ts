/**
 * The batches table behind one module: a batch as the API reads it (its row plus its chunks'
 * counters), listings, cancel, the status counts the metrics read, and the batch upload's
 * Idempotency-Keys. Its rows' outcomes are results.ts; its chunks, dispatch.ts.
 */
import { BATCH_STATES, OPEN_BATCH_STATES, type BatchSummary } from '@skiptrace/contracts';
import { idempotencyStore } from '@skiptrace/core';
import type { Database } from '@skiptrace/storage';
import { failRemainingRows } from './results.ts';

/** The open states as an SQL list: `status IN ${OPEN_SQL}`. */
export const OPEN_SQL = `(${OPEN_BATCH_STATES.map((s) => `'${s}'`).join(', ')})`;

/** States whose rows are traced: the open ones and `receiving` (the first pages of an upload). */
export const TRACED_STATES: readonly string[] = ['receiving', ...OPEN_BATCH_STATES];

/** A batches row as the store returns it. */
export interface BatchRow {
  id: string;
  account_id: string;
  status: BatchSummary['status'] | 'receiving';
  format: string;
  columns: string[];
  total: number;
  rejected: number;
  processed: number;
  matched: number;
  no_match: number;
  failed: number;
  erased: number;
  reused: number;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  updated_at: Date;
  error: string | null;
  name: string | null;
  tags: string[];
  fresh: boolean;
  rerun_of: string | null;
  phones: number;
  mobile: number;
}

/** The counters each chunk keeps in its batch_chunks row (migration 076). */
const CHUNK_COUNTERS = ['processed', 'matched', 'no_match', 'failed', 'reused', 'phones', 'mobile'] as const;

/**
 * A batch with its counters: `batches b` (what erasers, cancels and fails counted there)
 * plus the sums over its chunks (what each chunk stored: chunks of one batch store in
 * parallel, so none updates the batches row). Read as `SELECT ${BATCH_COLUMNS} FROM ${BATCH_FROM}`.
 */
export const BATCH_FROM = `batches b LEFT JOIN LATERAL (
  SELECT ${CHUNK_COUNTERS.map((c) => `sum(k.${c})::int AS ${c}`).join(', ')}, max(k.stored_at) AS stored_at
    FROM batch_chunks k WHERE k.batch_id = b.id) k ON true`;

export const BATCH_COLUMNS = [
  ...['id', 'account_id', 'status', 'format', 'columns', 'total', 'rejected', 'erased'].map((c) => `b.${c}`),
  ...CHUNK_COUNTERS.map((c) => `b.${c} + coalesce(k.${c}, 0) AS ${c}`),
  ...['created_at', 'started_at', 'completed_at', 'error', 'name', 'tags', 'fresh', 'rerun_of'].map((c) => `b.${c}`),
  'greatest(b.updated_at, k.stored_at) AS updated_at',
].join(', ');

/** Every row of the batch is accounted for (over BATCH_FROM). */
export const BATCH_DONE_SQL = `b.processed + coalesce(k.processed, 0) + b.rejected >= b.total`;

/** A batch's name as shown: its own, else `Batch <id>`. */
export const batchName = (row: Pick<BatchRow, 'id' | 'name'>): string => row.name ?? `Batch ${row.id}`;

export function toSummary(row: BatchRow): BatchSummary {
  const summary: BatchSummary = {
    id: String(row.id),
    status: row.status === 'receiving' ? 'queued' : row.status,
    total: row.total,
    processed: row.processed,
    matched: row.matched,
    no_match: row.no_match,
    failed: row.failed,
    erased: row.erased,
    rejected: row.rejected,
    reused: row.reused,
    created_at: row.created_at.toISOString(),
  };
  if (row.completed_at) summary.completed_at = row.completed_at.toISOString();
  if (row.error) summary.error = row.error;
  return summary;
}

/** A batch the account can see (not while it is received); undefined when there is none. */
export async function findBatch(db: Database, accountId: string, id: string): Promise<BatchRow | undefined> {
  const { rows } = await db.query<BatchRow>(
    `SELECT ${BATCH_COLUMNS} FROM ${BATCH_FROM} WHERE b.id = $1 AND b.account_id = $2 AND b.status <> 'receiving'`,
    [id, accountId],
  );
  return rows[0];
}

/** The account's batches, newest first; `beforeId` is the keyset cursor (exclusive). */
export async function listBatches(
  db: Database,
  accountId: string,
  limit: number,
  beforeId: string | null,
): Promise<BatchRow[]> {
  const { rows } = await db.query<BatchRow>(
    `SELECT ${BATCH_COLUMNS} FROM ${BATCH_FROM}
     WHERE b.account_id = $1 AND b.status <> 'receiving' AND ($2::bigint IS NULL OR b.id < $2::bigint)
     ORDER BY b.id DESC LIMIT $3`,
    [accountId, beforeId, limit],
  );
  return rows;
}

/** Renames or retags a batch; the batch as read after, undefined when the account has none of this id. */
export async function updateBatch(
  db: Database,
  accountId: string,
  id: string,
  update: { name?: string; tags?: string[] },
): Promise<BatchRow | undefined> {
  const { rowCount } = await db.query(
    `UPDATE batches SET name = coalesce($3, name), tags = coalesce($4::text[], tags), updated_at = now()
     WHERE id = $1 AND account_id = $2 AND status <> 'receiving'`,
    [id, accountId, update.name ?? null, update.tags ?? null],
  );
  return rowCount === 0 ? undefined : findBatch(db, accountId, id);
}

/** Cancels an open batch: its rows not traced yet fail with `batch cancelled`, its chunks are done. */
export async function cancelBatch(db: Database, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `UPDATE batches SET status = 'cancelled', completed_at = now(), updated_at = now()
       WHERE id = $1 AND status IN ${OPEN_SQL}`,
      [id],
    );
    await failRemainingRows(tx, id, 'batch cancelled', new Date());
    await tx.query(`UPDATE batch_chunks SET state = 'done' WHERE batch_id = $1 AND state <> 'done'`, [id]);
  });
}

const ALL_STATES = ['receiving', ...BATCH_STATES];

/** How many batches are in each state (skiptrace_batches{status}, read at scrape time). */
export async function countBatches(db: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = Object.fromEntries(ALL_STATES.map((s) => [s, 0]));
  const { rows } = await db.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM batches GROUP BY status',
  );
  for (const { status, n } of rows) counts[status] = n;
  return counts;
}

/** The Idempotency-Keys of batch uploads: the batch each created. */
export const batchIdempotency = idempotencyStore('batch_idempotency_keys', 'batch_id');
