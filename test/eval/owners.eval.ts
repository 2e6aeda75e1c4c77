/**
 * Prints the owner evaluation (#24 item 7, owner-evaluation.ts beside this file): per
 * situation owner recall, owner precision, tenant-as-owner, no-owner-correct and
 * current-phone-first, then the same per query form.
 *
 *   ./run eval:owners [--people 6300] [--per-situation 450] [--seed 20261125] [--failures]
 *
 * `--failures`: a few failed queries per situation — the roll, how it was read, who was
 * missed or wrongly flagged, and what came back.
 *
 * On PostgreSQL when DATABASE_URL is set (a scratch database is created on that server
 * and dropped afterwards), otherwise on an in-memory PGlite.
 */
import { parseArgs } from 'node:util';
import { createPgliteDatabase, createPostgresDatabase } from '@skiptrace/storage';
import type { Database } from '@skiptrace/storage';
import { createTestDatabaseUrl } from '@skiptrace/testing';
import { formatOwnerEvaluation, formatOwnerFailures, runOwnerEvaluation } from './owner-evaluation.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '6300' },
    'per-situation': { type: 'string', default: '450' },
    seed: { type: 'string', default: '20261125' },
    failures: { type: 'boolean', default: false },
    examples: { type: 'string', default: '8' },
  },
});

const url = process.env.DATABASE_URL;
const scratch = url === undefined || url === '' ? null : await createTestDatabaseUrl('owner_eval', url);
const db: Database = scratch === null ? createPgliteDatabase({}) : createPostgresDatabase({ url: scratch.url });
try {
  await db.migrate();
  const started = performance.now();
  let size = '';
  const report = await runOwnerEvaluation(db, {
    people: Number(values.people),
    perSituation: Number(values['per-situation']),
    seed: Number(values.seed),
    examples: Number(values.examples),
    onWorld: (world) => (size = `${world.people.length} people, ${world.parcels.length} parcels`),
  });
  console.log(
    `owner evaluation on ${db.kind}: ${size}, at most ${values['per-situation']} queries per situation, seed ${values.seed}`,
  );
  console.log(formatOwnerEvaluation(report));
  if (values.failures) console.log(`\n${formatOwnerFailures(report)}`);
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
} finally {
  await db.close();
  await scratch?.drop();
}
