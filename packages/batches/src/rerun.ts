/**
 * Re-running a list: a new batch made of rows of a finished one, traced afresh. "Misses" are
 * the rows that found nobody (no_match), with `includeFailed` also those whose trace failed
 * or was cancelled; "all" is every accepted row (force fresh). The new batch is `fresh` (the
 * chunk handler reuses no stored result, so a miss is traced again rather than answered by
 * the miss of the last 24 h), names the batch it re-runs (`rerun_of`), keeps its input
 * columns and numbers its rows 1… in their original order.
 */
import { isOpenBatch, type BatchRerun } from '@skiptrace/contracts';
import { analyzeBatchInputs, copyBatchInputsOf } from '@skiptrace/core';
import { ApiError } from '@skiptrace/runtime';
import { batchName, findBatch, type BatchRow } from './batch.repository.ts';
import { completeIfDone, publishChunks, queueBatch } from './dispatch.ts';
import { createReceivingBatch } from './ingest.ts';
import type { Format } from './sources.ts';
import type { SubmitDeps } from './submit.ts';

/** The name a batch shows: its own, else "Batch <id>". */

export async function rerunBatch(
  deps: SubmitDeps,
  input: { accountId: string; clientId?: string; source: BatchRow; request: BatchRerun },
): Promise<BatchRow> {
  const { db, bus, config, logger } = deps;
  const { accountId, source, request } = input;
  if (isOpenBatch(source.status) || source.status === 'receiving')
    throw new ApiError('conflict', `batch ${source.id} is ${source.status}; re-run it when it has finished`);
  const statuses = request.rows === 'all' ? null : request.include_failed ? ['no_match', 'failed'] : ['no_match'];
  const { batchId, copied } = await db.transaction(async (tx) => {
    let rowNumbers: number[] | undefined;
    if (statuses) {
      const { rows } = await tx.query<{ row_number: number }>(
        `SELECT row_number FROM batch_results WHERE batch_id = $1::bigint AND status = ANY($2::text[]) ORDER BY row_number`,
        [source.id, statuses],
      );
      rowNumbers = rows.map((r) => r.row_number);
      if (rowNumbers.length === 0)
        throw new ApiError(
          'conflict',
          `batch ${source.id} has no ${request.include_failed ? 'missed or failed' : 'missed'} rows to re-run`,
        );
    }
    const id = await createReceivingBatch(tx, accountId, source.format as Format, input.clientId, {
      name: request.name ?? `${batchName(source)} (${request.rows === 'all' ? 'fresh' : 'misses'})`,
      tags: request.tags ?? source.tags,
      fresh: true,
      rerunOf: source.id,
    });
    const copied = await copyBatchInputsOf(tx, source.id, id, rowNumbers);
    if (copied === 0) throw new ApiError('conflict', `batch ${source.id} has no rows left to re-run`);
    await tx.query(`UPDATE batches SET columns = $2::jsonb, total = $3, rejected = 0 WHERE id = $1`, [
      id,
      JSON.stringify(source.columns),
      copied,
    ]);
    return { batchId: id, copied };
  });
  await analyzeBatchInputs(db, copied);
  const chunks = await queueBatch(db, batchId, config.chunkSize, config.chunksInFlight);
  try {
    await publishChunks(bus, accountId, batchId, chunks);
    await completeIfDone(db, bus, batchId);
  } catch (err) {
    // Stored and queued: the batch sweep publishes chunks the broker did not take.
    logger?.warn({ err, batchId }, 'chunk publish failed; left to the sweep');
  }
  return (await findBatch(db, accountId, batchId))!;
}
