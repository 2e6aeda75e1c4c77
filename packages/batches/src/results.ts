/**
 * Where a batch row's outcome is stored: `batch_results` (migration 070), one row per traced
 * batch row, written insert-only. The row's input (core's batch_inputs) stays
 * `pending`; readers (GET /property/skiptrace, the export) take the outcome from here.
 *
 * Locking: every writer of a batch's results (a chunk, cancel, fail) and every eraser (purge,
 * DELETE /plants/{id}) first locks the batch's `batches` row, and writes in a later statement
 * of the same transaction — so its snapshot sees whatever the previous holder committed:
 * a result is never stored for a row erased meanwhile, and an erase never misses a result.
 * Chunks lock it in share mode (lockBatch): they do not wait for one another, only for
 * erasers, cancels and fails, which lock it exclusively.
 */
import { deleteBatchInputs } from '@skiptrace/core';
import { jsonDocumentsParam, type Database, type Sql } from '@skiptrace/storage';
import { failedResultCsv, type ResultCsv } from './export.ts';

/**
 * The reuse key of a batch input or a reusable trace (alias `p`): address and owner name, case-insensitive,
 * and the owner's mailing address and parcel number when given (concat_ws skips NULLs, so a
 * row without them keeps the key it had before they existed), as a uuid (md5). Stored in
 * batch_results.trace_key and looked up with the same expression.
 */
export const traceKeySql = (p: string) =>
  `md5(concat_ws(chr(31), lower(${p}.street_address), left(${p}.zip_code, 5), lower(${p}.city), upper(${p}.state),
     lower(coalesce(${p}.first_name, '')), lower(coalesce(${p}.last_name, '')),
     'm' || ${p}.mailing_address::text, 'a' || ${p}.apn))::uuid`;

/**
 * Locks the batch row; its status, or undefined when the batch is gone. Chunks storing
 * results take it in share mode ('share': they write disjoint rows and count in their own
 * batch_chunks row, so they store in parallel); erasers, cancels and fails exclusively,
 * so each waits for the chunks storing and they for it.
 */
export async function lockBatch(
  tx: Sql,
  batchId: string,
  mode: 'update' | 'share' = 'update',
): Promise<string | undefined> {
  const { rows } = await tx.query<{ status: string }>(
    `SELECT status FROM batches WHERE id = $1::bigint ${mode === 'share' ? 'FOR SHARE' : 'FOR UPDATE'}`,
    [batchId],
  );
  return rows[0]?.status;
}

/** A batch row not traced yet: its batch input has no batch_results row (a PK probe). */
export const pendingSql = (p: string, batchIdBigint: string) =>
  `${p}.status = 'pending' AND (SELECT true FROM batch_results r
     WHERE r.batch_id = ${batchIdBigint} AND r.row_number = ${p}.row_number) IS NULL`;

/**
 * Rows' CSV cells (resultCsv) as the two text parameters STORE_OUTCOMES splits (csv_before,
 * csv_after), joined like JSON documents (jsonDocumentsParam: by the record separator). A
 * row whose cells hold that character (some text of its results) goes without them, NULL:
 * the export renders it from its results, with the same function.
 */
export function csvCellsParams(cells: readonly ResultCsv[]): [string, string] {
  const sendable = cells.map((c) => (c.before.includes('\u001e') || c.after.includes('\u001e') ? null : c));
  return [
    jsonDocumentsParam(sendable.map((c) => c?.before ?? null)),
    jsonDocumentsParam(sendable.map((c) => c?.after ?? null)),
  ];
}

/**
 * Stores `reason` as the `failed` outcome of every row of the batch still without one
 * (with its CSV cells, the same for every row); returns how many. The caller holds the batch
 * row's lock (lockBatch).
 */
export async function failRemainingRows(tx: Sql, batchId: string, reason: string, at: Date): Promise<number> {
  const csv = failedResultCsv(reason);
  const { rowCount } = await tx.query(
    `INSERT INTO batch_results (batch_id, row_number, account_id, trace_key, status, error, results, completed_at,
                                csv_before, csv_after)
     SELECT $1::bigint, p.row_number, p.account_id, ${traceKeySql('p')}, 'failed', $3::text, '[]', $4::timestamptz,
            $5::text, $6::text
       FROM batch_inputs p WHERE p.batch_id = $2::text AND ${pendingSql('p', '$1::bigint')}
     ON CONFLICT DO NOTHING`,
    [batchId, batchId, reason, at, csv.before, csv.after],
  );
  return rowCount;
}

/**
 * Deletes a batch with all its rows, results and rejects (purge, failed upload). With
 * onlyReceiving, only while the batch is still being received (nothing when the sweep has
 * ended it meanwhile).
 */
export async function deleteBatchData(
  db: Database,
  batchId: string,
  options: { onlyReceiving?: boolean } = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    // First: waits for a chunk storing results, and keeps any later one from storing more.
    const deleted = await tx.query(
      `DELETE FROM batches WHERE id = $1::bigint${options.onlyReceiving ? ` AND status = 'receiving'` : ''}`,
      [batchId],
    );
    if (options.onlyReceiving && deleted.rowCount === 0) {
      const { rows } = await tx.query(`SELECT 1 FROM batches WHERE id = $1::bigint`, [batchId]);
      if (rows.length > 0) return;
    }
    await deleteBatchInputs(tx, batchId);
    await tx.query(`DELETE FROM batch_results WHERE batch_id = $1::bigint`, [batchId]);
  });
}
