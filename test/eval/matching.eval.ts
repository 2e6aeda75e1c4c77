/**
 * Prints the matching evaluation: precision, recall and absent → no match per kind of
 * noise, and the reliability table (docs/matching.md).
 *
 *   ./run eval:matching [--households 4000] [--per-kind 100] [--seed 20261123] [--set standard|stress]
 *
 * `--set stress`: a harder population and the stress noise kinds on top of the standard ones
 * (evaluation-stress.ts beside this file).
 *
 * On PostgreSQL when DATABASE_URL is set (a scratch database is created on that server
 * and dropped afterwards), otherwise on an in-memory PGlite.
 */
import { parseArgs } from 'node:util';
import { formatEvaluation, type EvalQuery, type EvalResult, type Population } from './evaluation.ts';
import { createPgliteDatabase, createPostgresDatabase } from '@skiptrace/storage';
import type { Database } from '@skiptrace/storage';
import { createTestDatabaseUrl } from '@skiptrace/testing';
import { runMatchingEvaluation } from './matching-evaluation.ts';

const { values } = parseArgs({
  options: {
    households: { type: 'string', default: '4000' },
    'per-kind': { type: 'string', default: '100' },
    seed: { type: 'string', default: '20261123' },
    set: { type: 'string', default: 'standard' },
    misses: { type: 'boolean', default: false },
  },
});
if (values.set !== 'standard' && values.set !== 'stress') throw new Error('--set must be standard or stress');

/** --misses: each query whose asked-for person was not returned, or that returned someone else. */
function printMiss(query: EvalQuery, results: EvalResult[], population: Population): void {
  const byPhone = new Map(population.people.map((p) => [p.phone, p]));
  const right = new Set(query.household.length > 0 ? query.household : query.expected === null ? [] : [query.expected]);
  const found = query.expected !== null && results.some((r) => byPhone.get(r.phone)?.id === query.expected);
  const wrong = results.filter((r) => !right.has(byPhone.get(r.phone)?.id ?? -1));
  if ((query.expected === null || found) && wrong.length === 0) return;
  const who = (id: number | undefined) => {
    const p = id === undefined ? undefined : population.people[id];
    return p === undefined ? '-' : `${p.first} ${p.last} @ ${p.street_address}, ${p.city} ${p.state} ${p.zip_code}`;
  };
  const q = query.property;
  console.log(
    `${wrong.length > 0 ? 'WRONG' : 'MISS '} ${query.kind}: ${q.first_name ?? ''} ${q.last_name ?? ''} @ ${q.street_address}, ${q.city} ${q.state} ${q.zip_code}` +
      `\n      expected ${who(query.expected ?? undefined)}` +
      (query.expected === null
        ? ''
        : `\n      household ${(population.members.get(population.people[query.expected]!.household) ?? []).map((id) => `${population.people[id]!.first} ${population.people[id]!.last}`).join(', ')}`) +
      wrong.map((r) => `\n      returned ${who(byPhone.get(r.phone)?.id)} (${r.confidence})`).join(''),
  );
}

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
    set: values.set,
    onResult: values.misses ? printMiss : undefined,
  });
  console.log(
    `matching evaluation (${values.set}) on ${db.kind}, ${values.households} households, ${values['per-kind']} queries per kind, seed ${values.seed}`,
  );
  console.log(formatEvaluation(report));
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
} finally {
  await db.close();
  await scratch?.drop();
}
