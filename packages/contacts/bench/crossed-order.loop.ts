/**
 * Runs the crossed-order import of contacts.int.test.ts ("stores each row once when two
 * large batches in flight hold the same rows in crossed order") many times against the
 * local PostgreSQL, outside CI, and reports how often an import failed and how many
 * deadlocks PostgreSQL detected meanwhile (pg_stat_database.deadlocks of the scratch
 * database). The store holds one other row first, so the import goes batch by batch
 * (contact-stage.ts), where the crossed order can deadlock; an import into an empty store
 * goes through a load table without indexes (contact-load.ts) and cannot. Usage: node packages/contacts/bench/crossed-order.loop.ts [--runs 100] [--rows 5000]
 */
import { parseArgs } from 'node:util';
import { createPostgresDatabase } from '@skiptrace/storage';
import { createTestDatabaseUrl } from '@skiptrace/testing';
import { importContacts } from '../src/index.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '100' }, rows: { type: 'string', default: '5000' } },
});
const runs = Number(values.runs);
const n = Number(values.rows);

const header = 'street_address,city,state,zip5,first_name,last_name,phone_1';
const row = (i: number) => `${i} Cedar Ln,Austin,TX,78701,Al,Roe,512-555-0110`;
const lines = [header];
for (let i = 1; i <= n; i++) lines.push(row(i));
for (let i = n; i >= 1; i--) lines.push(row(i));
const csv = [...lines, ''].join('\n');

const database = await createTestDatabaseUrl('crossed');
const db = createPostgresDatabase({ url: database.url });
await db.migrate();
const deadlocks = async () =>
  (await db.query<{ d: number }>('SELECT deadlocks::int AS d FROM pg_stat_database WHERE datname = current_database()'))
    .rows[0]!.d;
const before = await deadlocks();
let failed = 0;
let wrong = 0;
const started = Date.now();
try {
  for (let run = 1; run <= runs; run++) {
    await db.query('TRUNCATE contacts');
    await importContacts(db, `${header}\n1 Other Rd,Austin,TX,78701,Al,Roe,512-555-0111\n`, { format: 'csv' });
    try {
      const counts = await importContacts(db, csv, { format: 'csv', batchSize: n });
      if (counts.imported !== n || counts.duplicates !== n) wrong++;
    } catch (err) {
      failed++;
      console.error(`run ${run}: ${(err as Error).message}`);
    }
  }
  // pg_stat counters are flushed by backends at the end of transactions, at most once a second.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  console.log(
    JSON.stringify({
      runs,
      rowsPerBatch: n,
      failed,
      wrongCounts: wrong,
      deadlocksDetected: (await deadlocks()) - before,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    }),
  );
} finally {
  await db.close();
  await database.drop();
}
