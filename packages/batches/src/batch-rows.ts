/**
 * The batches' side of core's BatchRows port: a batch row's outcome is its `batch_results`
 * row, and erasing a batch row (DELETE /plants/{id}) happens under its batch's lock (see
 * results.ts): either the chunk stored the row's result first and it is deleted here (the
 * batch's counters keep the row: it was traced), or the chunk no longer sees the row and
 * this erase counts it in the batch (processed and erased), which then completes here, with
 * its batch.completed event, if that was the last row it waited for.
 */
import type { BatchRowOutcome, BatchRows } from '@skiptrace/core';
import type { MessageBus } from '@skiptrace/messaging';
import type { Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import { TRACED_STATES } from './batch.repository.ts';
import { completeIfDone } from './dispatch.ts';
import { lockBatch } from './results.ts';

export function createBatchRows(deps: { db: Database; bus: MessageBus; logger?: Logger }): BatchRows {
  return {
    async outcomes(sql, rows) {
      if (rows.length === 0) return [];
      const { rows: found } = await sql.query<BatchRowOutcome & { n: number }>(
        `SELECT t.n::int AS n, r.status, r.error, r.results::jsonb AS results, r.people_total,
           r.owner_facts::jsonb AS owner_facts, r.completed_at
         FROM unnest($1::bigint[], $2::int[]) WITH ORDINALITY AS t(batch_id, row_number, n)
         JOIN batch_results r ON r.batch_id = t.batch_id AND r.row_number = t.row_number`,
        [rows.map((r) => r.batchId), rows.map((r) => r.rowNumber)],
      );
      const out: (BatchRowOutcome | undefined)[] = rows.map(() => undefined);
      for (const { n, ...outcome } of found) out[n - 1] = outcome;
      return out;
    },

    outcomeSql: (p) =>
      `(SELECT r.status, r.results::jsonb AS results FROM batch_results r
         WHERE r.batch_id = ${p}.batch_id::bigint AND r.row_number = ${p}.row_number)`,

    async erase(tx, row, remove) {
      const status = await lockBatch(tx, row.batchId);
      // Statements after the lock see what the previous holder (a chunk storing results) committed.
      const removed = await remove();
      if (!removed) return { removed: false, settled: false };
      const result = await tx.query(`DELETE FROM batch_results WHERE batch_id = $1::bigint AND row_number = $2`, [
        row.batchId,
        row.rowNumber,
      ]);
      const waiting = removed.pending && result.rowCount === 0;
      if (!waiting || status === undefined || !TRACED_STATES.includes(status)) return { removed: true, settled: false };
      await tx.query(
        `UPDATE batches SET processed = processed + 1, erased = erased + 1, updated_at = now() WHERE id = $1::bigint`,
        [row.batchId],
      );
      return { removed: true, settled: true };
    },

    async settled(batchId) {
      try {
        await completeIfDone(deps.db, deps.bus, batchId);
      } catch (err) {
        // The erase is committed; the batch sweep completes batches whose rows are all settled.
        deps.logger?.warn({ err, batchId }, 'batch completion after an erase failed; left to the sweep');
      }
    },
  };
}
