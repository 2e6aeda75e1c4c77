/**
 * Where a batch's accepted rows are stored: they are `properties` rows with a batch_id and a
 * row_number (so GET /property/skiptrace/{id} and DELETE /plants/{id} serve them like any
 * other). `properties` is core's table; the batches package writes batch rows only through
 * these functions and reads them through core's published views `batch_inputs` and
 * `reusable_traces` (migration 110), which scripts/boundaries.ts enforces.
 */
import type { Property } from '@skiptrace/contracts';
import { REQUEST_FIELDS } from '@skiptrace/contracts';
import { analyzeAfterLoad, type Database, type Sql } from '@skiptrace/storage';
import { requestValues } from './property.repository.ts';

/** The columns a batch row is written with, in the order batchInputValues gives them. */
export const BATCH_INPUT_COLUMNS = ['account_id', ...REQUEST_FIELDS, 'batch_id', 'row_number', 'input'];

/** One batch row's values in BATCH_INPUT_COLUMNS order: the request's between the batch's. */
export function batchInputValues(
  accountId: string,
  property: Property,
  batchId: string,
  rowNumber: number,
  input: readonly unknown[],
): unknown[] {
  return [accountId, ...requestValues(property), batchId, rowNumber, input];
}

/** Writes a page of batch rows (batchInputValues each) with COPY. */
export async function copyBatchInputs(db: Database, rows: unknown[][]): Promise<void> {
  await db.copyRows('properties', BATCH_INPUT_COLUMNS, rows);
}

/**
 * Refreshes the planner's statistics after an upload stored `rowsWritten` batch rows, when
 * that many changes the table's shape (analyzeAfterLoad); true when it ran ANALYZE.
 */
export function analyzeBatchInputs(db: Sql, rowsWritten: number): Promise<boolean> {
  return analyzeAfterLoad(db, 'properties', rowsWritten);
}

/** Deletes every row of a batch (purge, failed upload); the caller holds the batch's lock. */
export async function deleteBatchInputs(tx: Sql, batchId: string): Promise<void> {
  await tx.query(`DELETE FROM properties WHERE batch_id = $1::text`, [batchId]);
}

/**
 * Copies rows of batch `fromBatchId` into batch `toBatchId` (a re-run), numbered 1… in their
 * order there: every row, or those whose row numbers are given. Returns how many it copied.
 */
export async function copyBatchInputsOf(
  tx: Sql,
  fromBatchId: string,
  toBatchId: string,
  rowNumbers?: readonly number[],
): Promise<number> {
  const fields = REQUEST_FIELDS.join(', ');
  const { rowCount } = await tx.query(
    `INSERT INTO properties (account_id, ${fields}, batch_id, row_number, input)
     SELECT account_id, ${fields}, $2::text, row_number() OVER (ORDER BY row_number)::int, input
       FROM properties
      WHERE batch_id = $1::text AND ($3::int[] IS NULL OR row_number = ANY($3::int[]))
      ORDER BY row_number`,
    [fromBatchId, toBatchId, rowNumbers ?? null],
  );
  return rowCount;
}
