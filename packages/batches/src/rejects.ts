/**
 * A batch's rejected rows with their row numbers and reasons, for the console (the first N,
 * then the next page by cursor) and as a CSV of their own (row, reason, the input columns).
 */
import { csvCell } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';

export interface BatchReject {
  row: number;
  reason: string;
  /** The row's cells by input column (an unparseable line: its text). */
  input: unknown;
}

/** Rejects after row `afterRow`, in row order, at most `limit`. */
export async function listRejects(
  db: Database,
  batchId: string,
  afterRow: number,
  limit: number,
): Promise<BatchReject[]> {
  const { rows } = await db.query<{ row_number: number; reason: string; raw: unknown }>(
    `SELECT row_number, reason, raw FROM batch_rejects WHERE batch_id = $1 AND row_number > $2 ORDER BY row_number LIMIT $3`,
    [batchId, afterRow, limit],
  );
  return rows.map((r) => ({ row: r.row_number, reason: r.reason, input: r.raw }));
}

/** All of a batch's rejects as CSV lines (header first), a page at a time. */
export async function* rejectsCsv(db: Database, batchId: string, columns: readonly string[], pageRows: number) {
  yield `${['row', 'reason', ...columns].map(csvCell).join(',')}\n`;
  for (let after = 0; ;) {
    const page = await listRejects(db, batchId, after, pageRows);
    if (page.length === 0) return;
    let text = '';
    for (const r of page) {
      const cells = Array.isArray(r.input)
        ? columns.map((_, i) => csvCell((r.input as unknown[])[i]))
        : [csvCell(r.input)];
      text += `${[csvCell(r.row), csvCell(r.reason), ...cells].join(',')}\n`;
    }
    yield text;
    after = page[page.length - 1]!.row;
  }
}
