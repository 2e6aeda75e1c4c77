/**
 * Chunk scheduling. A batch's rows are split into row-range chunks (batch_chunks); only a
 * window of them (chunksInFlight) is on the broker at once, and each finished chunk hands
 * the next one over in the same transaction that stores its results. So a million-row
 * batch never floods the shared chunk queue: concurrent batches interleave there
 * chunk by chunk (round-robin), and the synchronous skiptrace.jobs queue is separate.
 * Nothing is lost between store and broker: a chunk marked queued whose job vanished
 * (crash between commit and publish, broker restart) is published again by the sweep.
 */
import { isOpenBatch, MESSAGES, parseMessage, type BatchSummary, type Message } from '@skiptrace/contracts';
import type { MessageBus } from '@skiptrace/messaging';
import type { Logger } from '@skiptrace/runtime';
import { analyzeAfterLoad, type Database, type Sql } from '@skiptrace/storage';
import {
  BATCH_COLUMNS,
  BATCH_DONE_SQL,
  BATCH_FROM,
  batchName,
  OPEN_SQL,
  toSummary,
  type BatchRow,
} from './batch.repository.ts';
import { failRemainingRows, lockBatch, pendingSql } from './results.ts';

export interface ChunkRef {
  fromRow: number;
  toRow: number;
}

export const chunkMessageId = (batchId: string, fromRow: number) => `batch:${batchId}:${fromRow}`;

/**
 * Creates the chunks of a received batch from `fromRow` on (the rows before were opened while
 * it was received: openStoredChunks), opens it ('queued') and fills its window.
 */
export async function queueBatch(
  db: Database,
  batchId: string,
  chunkSize: number,
  window: number,
  fromRow = 1,
): Promise<ChunkRef[]> {
  return db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO batch_chunks (batch_id, from_row, to_row)
       SELECT b.id, g, LEAST(g + $2 - 1, b.total) FROM batches b, generate_series($3::int, b.total, $2) AS g WHERE b.id = $1`,
      [batchId, chunkSize, fromRow],
    );
    await tx.query(`UPDATE batches SET status = 'queued', updated_at = now() WHERE id = $1 AND status = 'receiving'`, [
      batchId,
    ]);
    return fillWindow(tx, batchId, window);
  });
}

/**
 * While a batch is still received: creates the whole chunks of rows `fromRow`…`throughRow`
 * (stored already) and fills the window, so tracing starts with the first pages of a large
 * upload instead of after its last. Returns the first row not in a chunk yet and the claimed
 * chunks to publish. If the upload fails, deleteBatchData takes the chunks and results with
 * it, and chunk jobs still on the broker find no batch.
 */
export async function openStoredChunks(
  db: Database,
  batchId: string,
  fromRow: number,
  throughRow: number,
  chunkSize: number,
  window: number,
): Promise<{ nextRow: number; claimed: ChunkRef[] }> {
  const whole = Math.floor((throughRow - fromRow + 1) / chunkSize);
  if (whole <= 0) return { nextRow: fromRow, claimed: [] };
  const nextRow = fromRow + whole * chunkSize;
  const claimed = await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO batch_chunks (batch_id, from_row, to_row)
       SELECT $1, g, g + $2 - 1 FROM generate_series($3::int, $4::int, $2) AS g`,
      [batchId, chunkSize, fromRow, nextRow - chunkSize],
    );
    return fillWindow(tx, batchId, window);
  });
  return { nextRow, claimed };
}

/** Claims waiting chunks until `window` of the batch's chunks are on the broker. */
async function fillWindow(sql: Sql, batchId: string, window: number): Promise<ChunkRef[]> {
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM batch_chunks WHERE batch_id = $1 AND state = 'queued'`,
    [batchId],
  );
  return claimChunks(sql, batchId, Math.max(window - rows[0]!.n, 0));
}

/** Moves up to `limit` waiting chunks of the batch to queued, first rows first. */
export async function claimChunks(sql: Sql, batchId: string, limit: number): Promise<ChunkRef[]> {
  if (limit <= 0) return [];
  const { rows } = await sql.query<{ from_row: number; to_row: number }>(
    `UPDATE batch_chunks SET state = 'queued', published_at = now()
     WHERE batch_id = $1 AND from_row IN (
       SELECT from_row FROM batch_chunks WHERE batch_id = $1 AND state = 'waiting'
       ORDER BY from_row LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING from_row, to_row`,
    [batchId, limit],
  );
  return rows.map((r) => ({ fromRow: r.from_row, toRow: r.to_row })).sort((a, b) => a.fromRow - b.fromRow);
}

/** The queue of chunk jobs (the catalogue's, for job.batch.chunk). */
export const CHUNK_QUEUE = MESSAGES['job.batch.chunk'].queue;

export async function publishChunks(
  bus: MessageBus,
  accountId: string,
  batchId: string,
  chunks: ChunkRef[],
): Promise<void> {
  await Promise.all(
    chunks.map((c) =>
      bus.publish(
        'job.batch.chunk',
        { batchId, accountId, fromRow: c.fromRow, toRow: c.toRow },
        { messageId: chunkMessageId(batchId, c.fromRow) },
      ),
    ),
  );
}

/**
 * Completes the batch when every row is accounted for. The event is published before the
 * conditional status change, so a crash in between publishes it again on the next call
 * (same message id `batch.completed:<id>`): at least once, never lost. Callers at once (the
 * last chunks, the upload's end, an erase, the sweep) take turns on the batch row's lock, so
 * only the first finds the batch unfinished and announces it.
 */
export async function completeIfDone(db: Database, bus: MessageBus, batchId: string): Promise<boolean> {
  const row = await db.transaction(async (tx) => {
    const status = await lockBatch(tx, batchId);
    if (!isOpenBatch(status)) return undefined;
    const { rows } = await tx.query<BatchRow>(
      `SELECT ${BATCH_COLUMNS} FROM ${BATCH_FROM} WHERE b.id = $1 AND ${BATCH_DONE_SQL}`,
      [batchId],
    );
    const done = rows[0];
    if (!done) return undefined;
    const completedAt = new Date();
    const summary = toSummary({ ...done, status: 'completed', completed_at: completedAt });
    await announceBatchEnd(bus, done, completedAt, summary);
    await tx.query(`UPDATE batches SET status = 'completed', completed_at = $2, updated_at = now() WHERE id = $1`, [
      batchId,
      completedAt,
    ]);
    return done;
  });
  // The batch's outcomes were a bulk load into batch_results (one row per traced row): its
  // statistics are refreshed by the rule every bulk writer follows, after the batch is done.
  if (row) await analyzeAfterLoad(db, 'batch_results', row.processed);
  return row !== undefined;
}

export interface SweepOptions {
  staleChunkMs: number;
  /** An upload whose owner's heartbeat is older than this died with its process (upload-lease.ts). */
  uploadLeaseMs: number;
  /** Dispatches of one chunk (first publish included) before its batch is failed. */
  maxChunkDispatches: number;
  /** Most chunks republished per sweep. Default 1000. */
  limit?: number;
}

export interface SweepReport {
  republished: number;
  failed: number;
  completed: number;
  /** Uploads ended because the process receiving them died. */
  interrupted: number;
}

/**
 * Fails a batch that cannot progress: its pending rows become failed with the reason, its
 * chunks done, and `batch.completed` is published with status `failed` and the reason — the
 * event first, then the conditional update, so a crash in between repeats both (same
 * message id): at least once, never lost.
 */
export async function failBatch(db: Database, bus: MessageBus, batchId: string, reason: string): Promise<boolean> {
  const { rows } = await db.query<BatchRow & { pending: number }>(
    `SELECT ${BATCH_COLUMNS}, (SELECT count(*)::int FROM batch_inputs p
       WHERE p.batch_id = b.id::text AND ${pendingSql('p', 'b.id')}) AS pending
     FROM ${BATCH_FROM} WHERE b.id = $1::bigint AND b.status IN ${OPEN_SQL}`,
    [batchId],
  );
  const row = rows[0];
  if (!row) return false;
  const completedAt = new Date();
  const summary = toSummary({
    ...row,
    status: 'failed',
    processed: row.processed + row.pending,
    failed: row.failed + row.pending,
    completed_at: completedAt,
    error: reason,
  });
  await announceBatchEnd(bus, row, completedAt, summary);
  return db.transaction(async (tx) => {
    const status = await lockBatch(tx, batchId);
    if (!isOpenBatch(status)) return false;
    const rowCount = await failRemainingRows(tx, batchId, reason, completedAt);
    const updated = await tx.query(
      `UPDATE batches SET status = 'failed', error = $2::text, completed_at = $3::timestamptz, updated_at = now(),
         processed = processed + $4::int, failed = failed + $4::int
       WHERE id = $1::bigint AND status IN ${OPEN_SQL}`,
      [batchId, reason, completedAt, rowCount],
    );
    await tx.query(`UPDATE batch_chunks SET state = 'done' WHERE batch_id = $1::bigint AND state <> 'done'`, [batchId]);
    return updated.rowCount > 0;
  });
}

/** How an interrupted upload's batch ends; also in docs/batches.md. */
export const UPLOAD_INTERRUPTED =
  'the upload was interrupted: the process receiving it stopped; rows stored before were kept, the rest never arrived';

/**
 * Ends the uploads whose receiving process died: `receiving` batches whose owner has not
 * renewed its lease for `leaseMs` (upload-lease.ts; never judged by age). Step 1, under the
 * batch row's lock and only if the lease is still lapsed: the batch becomes `running` with
 * the rows that were stored as its total and the reason as its `error`. Step 2 is failBatch:
 * stored rows not traced yet are failed with the reason (traced ones keep their results; the
 * chunk handler traces only pending rows, so none is traced twice), and `batch.completed`
 * is published with status `failed`. A crash between the steps leaves a running batch with an
 * error, which the next sweep fails (the first query below). Returns the batches ended.
 */
export async function endInterruptedUploads(db: Database, bus: MessageBus, leaseMs: number): Promise<number> {
  const lapsed = (lease: string) =>
    `coalesce(upload_heartbeat_at, created_at) < now() - make_interval(secs => ${lease}::double precision / 1000)`;
  const { rows: dead } = await db.query<{ id: string }>(
    `SELECT id FROM batches WHERE status = 'receiving' AND ${lapsed('$1')}`,
    [leaseMs],
  );
  for (const b of dead) {
    await db.query(
      `UPDATE batches SET status = 'running', error = $3::text, updated_at = now(), started_at = coalesce(started_at, now()),
         rejected = (SELECT count(*)::int FROM batch_rejects r WHERE r.batch_id = batches.id),
         total = (SELECT count(*)::int FROM batch_rejects r WHERE r.batch_id = batches.id)
               + (SELECT count(*)::int FROM batch_inputs p WHERE p.batch_id = batches.id::text)
       WHERE id = $1::bigint AND status = 'receiving' AND ${lapsed('$2')}`,
      [b.id, leaseMs, UPLOAD_INTERRUPTED],
    );
  }
  const { rows: ending } = await db.query<{ id: string; error: string }>(
    `SELECT id, error FROM batches WHERE status = 'running' AND error = $1`,
    [UPLOAD_INTERRUPTED],
  );
  let ended = 0;
  for (const b of ending) if (await failBatch(db, bus, String(b.id), b.error)) ended++;
  return ended;
}

/**
 * The batch outbox sweep: republishes chunks handed to the broker more than `staleChunkMs`
 * ago and not done (their job was lost: a crash between commit and publish, a purge, a
 * stray consumer on the same vhost), fails a batch whose chunk was dispatched
 * `maxChunkDispatches` times without finishing, completes batches whose last chunk finished
 * but whose completion was interrupted, and ends uploads whose receiving process died (its
 * lease lapsed, endInterruptedUploads). While chunk jobs wait on the broker (a backlog, not a
 * loss) nothing is republished or failed. Republishing is safe: the chunk handler traces
 * only rows still pending and counts each row once.
 */
export async function sweepBatches(
  db: Database,
  bus: MessageBus,
  options: SweepOptions,
  logger?: Logger,
): Promise<SweepReport> {
  const report: SweepReport = { republished: 0, failed: 0, completed: 0, interrupted: 0 };
  report.interrupted = await endInterruptedUploads(db, bus, options.uploadLeaseMs);
  // The chunk queue's depth tells a backlog from lost jobs.
  const backlog = (await bus.depth(CHUNK_QUEUE)) > 0;
  if (!backlog) {
    const { rows: stuck } = await db.query<{ batch_id: string; dispatches: number }>(
      `SELECT c.batch_id, max(c.dispatches)::int AS dispatches FROM batch_chunks c JOIN batches b ON b.id = c.batch_id
       WHERE b.status IN ${OPEN_SQL} AND c.state = 'queued' AND c.dispatches >= $2
         AND c.published_at < now() - make_interval(secs => $1::double precision / 1000)
       GROUP BY c.batch_id`,
      [options.staleChunkMs, options.maxChunkDispatches],
    );
    for (const b of stuck) {
      const reason = `a chunk of the batch was dispatched ${b.dispatches} times without finishing (its jobs were lost or kept failing)`;
      if (await failBatch(db, bus, String(b.batch_id), reason)) report.failed++;
    }
    const { rows: stale } = await db.query<{ batch_id: string; account_id: string; from_row: number; to_row: number }>(
      `UPDATE batch_chunks c SET published_at = now(), dispatches = c.dispatches + 1
       FROM batches b
       WHERE c.batch_id = b.id AND b.status IN ${OPEN_SQL} AND c.state = 'queued'
         AND c.published_at < now() - make_interval(secs => $1::double precision / 1000)
         AND (c.batch_id, c.from_row) IN (
           SELECT batch_id, from_row FROM batch_chunks WHERE state = 'queued' AND dispatches < $3
             AND published_at < now() - make_interval(secs => $1::double precision / 1000)
           ORDER BY published_at LIMIT $2)
       RETURNING c.batch_id, b.account_id, c.from_row, c.to_row`,
      [options.staleChunkMs, options.limit ?? 1000, options.maxChunkDispatches],
    );
    for (const c of stale) {
      await publishChunks(bus, c.account_id, String(c.batch_id), [{ fromRow: c.from_row, toRow: c.to_row }]);
      report.republished++;
    }
  }
  const { rows: done } = await db.query<{ id: string }>(
    `SELECT b.id FROM ${BATCH_FROM} WHERE b.status IN ${OPEN_SQL} AND ${BATCH_DONE_SQL}`,
  );
  for (const b of done) if (await completeIfDone(db, bus, String(b.id))) report.completed++;
  if (report.republished + report.failed + report.completed + report.interrupted > 0)
    logger?.info({ ...report }, 'batch sweep');
  return report;
}

/**
 * Publishes `batch.completed` (status completed or failed) before the row says so, with the
 * list's name and tags; a repeat is deduplicated by its id.
 */
async function announceBatchEnd(
  bus: MessageBus,
  row: BatchRow,
  completedAt: Date,
  summary: BatchSummary,
): Promise<void> {
  const event: Message<'event.batch.completed'> = {
    accountId: row.account_id,
    occurredAt: completedAt.toISOString(),
    data: { ...summary, name: batchName(row), tags: row.tags },
  };
  await bus.publish('event.batch.completed', parseMessage('event.batch.completed', event), {
    messageId: `batch.completed:${summary.id}`,
  });
}
