/**
 * Prints the matching evaluation: precision, recall and absent → no match per kind of
 * noise, and the reliability table (docs/matching.md).
 *
 *   ./run eval:matching [--households 4000] [--per-kind 100] [--seed 20261123]
 *
 * On PostgreSQL when DATABASE_URL is set (a scratch database is created on that server
 * and dropped afterwards), otherwise on an in-memory PGlite.
 */
import { parseArgs } from 'node:util';
import { formatEvaluation } from '@skiptrace/matching';
import { createPgliteDatabase, createPostgresDatabase } from '@skiptrace/storage';
import type { Database } from '@skiptrace/storage';
import { createTestDatabaseUrl } from '@skiptrace/testing';
import { runMatchingEvaluation } from './matching-evaluation.ts';

const { values } = parseArgs({
  options: {
    households: { type: 'string', default: '4000' },
    'per-kind': { type: 'string', default: '100' },
    seed: { type: 'string', default: '20261123' },
  },
});

const url = process.env.DATABASE_URL;
const scratch = url === undefined || url === '' ? null : await createTestDatabaseUrl('matching_eval', url);
const db: Database = scratch === null ? createPgliteDatabase({}) : createPostgresDatabase({ url: scratch.url });
try {
  await db.migrate();
  const started = performance.now();
  const report = await runMatchingEvaluation(db, {
    households: Number(values.households),
    perKind: Number(values['per-kind']),
    seed: Number(values.seed),
  });
  console.log(
    `matching evaluation on ${db.kind}, ${values.households} households, ${values['per-kind']} queries per kind, seed ${values.seed}`,
  );
  console.log(formatEvaluation(report));
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
} finally {
  await db.close();
  await scratch?.drop();
}
