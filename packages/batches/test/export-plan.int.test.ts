/**
 * The export reads a page of a batch's rows with their outcomes by one statement
 * (export.ts exportPageSql). A new batch's rows are a small part of tables that hold every
 * batch, so the planner's statistics often do not know them yet (analyzeAfterLoad waits for
 * a tenth of the table to change): it then expects one row on each side, and the join of
 * the page's inputs with its outcomes, written as a join of two row ranges, became a nested
 * loop comparing every row of the page with every row of the range (a 200,000-row export:
 * 86 s instead of 4). Each outcome is now probed by its row number; this test keeps it so
 * on a store whose statistics predate the batch.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPostgresDatabase, type Database } from '@skiptrace/storage';
import { createTestDatabaseUrl } from '@skiptrace/testing';
import { exportPageSql, TRACED_COLUMNS } from '../src/export.ts';

let db: Database;
let drop: () => Promise<void>;

/** Rows 1..n of batch `id` as inputs and as traced outcomes with their CSV cells. */
async function addBatch(id: number, n: number): Promise<void> {
  await db.query(
    `INSERT INTO properties (account_id, street_address, city, state, zip_code, batch_id, row_number, status, input)
     SELECT 'acct', g || ' MAIN ST', 'SPRINGFIELD', 'IL', '62701', $1::text, g, 'completed', '{}'::jsonb
       FROM generate_series(1, $2::int) g`,
    [id, n],
  );
  await db.query(
    `INSERT INTO batch_results (batch_id, row_number, account_id, trace_key, status, results, csv_before, csv_after)
     SELECT $1::bigint, g, 'acct', md5(g::text)::uuid, 'completed', '[]', 'before', 'after'
       FROM generate_series(1, $2::int) g`,
    [id, n],
  );
}

/** The rows the plan's join filters threw away, over all its nodes. */
function joinFilterRemoved(node: Record<string, unknown>): number {
  const own = Number(node['Rows Removed by Join Filter'] ?? 0);
  const children = (node['Plans'] as Record<string, unknown>[] | undefined) ?? [];
  return own + children.reduce((sum, child) => sum + joinFilterRemoved(child), 0);
}

beforeAll(async () => {
  const testDb = await createTestDatabaseUrl('batches_export_plan');
  drop = testDb.drop;
  db = createPostgresDatabase({ url: testDb.url });
  await db.migrate();
  // Statistics taken when the store held only batch 1; batch 2 (a tenth of the rows, less
  // than analyzeAfterLoad's threshold) arrives after them.
  await addBatch(1, 20_000);
  await db.query('ANALYZE properties');
  await db.query('ANALYZE batch_results');
  await addBatch(2, 2_000);
});

afterAll(async () => {
  await db?.close();
  await drop?.();
});

describe('export page statement', () => {
  it.each(Object.keys(TRACED_COLUMNS) as (keyof typeof TRACED_COLUMNS)[])(
    '%s: probes each row’s outcome, never comparing the page’s rows pairwise, on statistics older than the batch',
    async (format) => {
      const { rows } = await db.query<{ 'QUERY PLAN': { Plan: Record<string, unknown> }[] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${exportPageSql(TRACED_COLUMNS[format])}`,
        ['2', 1, 2_000, '2'],
      );
      const plan = rows[0]!['QUERY PLAN'][0]!.Plan;
      expect(plan['Actual Rows']).toBe(2_000);
      expect(joinFilterRemoved(plan)).toBe(0);
    },
  );
});
