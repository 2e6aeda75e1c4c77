// The trace engine alone, this checkout's against a reference checkout's, on one database
// in one process, alternating pass by pass: Node CPU, PostgreSQL CPU and wall time per
// traced property. It isolates the matcher (candidate queries, scoring, details) from the
// rest of the sync path, and alternating every pass cancels the drift of a shared machine.
//   node test/bench/matcher-pair.ts --ref-dir <checkout> [--contacts 200000] [--batch 12]
//     [--passes 6]
// The reference checkout must be installed (pnpm install); its createContactTraceEngine
// runs against this checkout's schema. For old matcher vs new with everything else equal:
//   dir=$(mktemp -d) && git worktree add --detach "$dir" "$(test/bench/matcher-v1-reference.sh)" &&
//   (cd "$dir" && pnpm install --frozen-lockfile --offline) && node test/bench/matcher-pair.ts --ref-dir "$dir"
// Queries are the sync benchmark's: 5,000 noisy variants of stored rows (seed 99), traced in
// batches of --batch (the sync worker's batches under load are about a dozen; a batch chunk
// is 500). Run it under the bench lock.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { importContacts } from '@skiptrace/contacts';
import { createContactTraceEngine, type TraceEngine } from '@skiptrace/core';
import { demoQueryFor, generateContacts } from '@skiptrace/demo';
import { createPostgresDatabase } from '@skiptrace/storage';
import { createTestDatabaseUrl } from '@skiptrace/testing';
import { cpuSnapshot, databaseBackends, type PidGroups } from '@skiptrace/testing/cpu-time';

const { values } = parseArgs({
  options: {
    'ref-dir': { type: 'string' },
    contacts: { type: 'string', default: '200000' },
    batch: { type: 'string', default: '12' },
    passes: { type: 'string', default: '6' },
  },
});
if (!values['ref-dir']) throw new Error('--ref-dir <installed checkout> is required');
const contacts = Number(values.contacts);
const batch = Number(values.batch);
const passes = Number(values.passes);
const SEED = 99;

const refModule = pathToFileURL(resolve(values['ref-dir'], 'packages/core/src/index.ts')).href;
const ref = (await import(refModule)) as { createContactTraceEngine: typeof createContactTraceEngine };

const testDb = await createTestDatabaseUrl('bench_matcher');
const db = createPostgresDatabase({ url: testDb.url });
try {
  await db.migrate();
  async function* ndjson() {
    for (const row of generateContacts({ rows: contacts, seed: SEED })) yield `${JSON.stringify(row)}\n`;
  }
  await importContacts(db, ndjson(), { format: 'ndjson', source: 'bench' });
  const stride = Math.max(1, Math.floor(contacts / 5000));
  const properties: Parameters<TraceEngine['traceMany']>[0] = [];
  let i = 0;
  for (const row of generateContacts({ rows: contacts, seed: SEED })) {
    if (i++ % stride === 0) properties.push(demoQueryFor(row, i));
  }
  const engines: Record<'ref' | 'current', TraceEngine> = {
    ref: ref.createContactTraceEngine(db),
    current: createContactTraceEngine(db),
  };
  const dbName = new URL(testDb.url).pathname.slice(1);
  // Its own connection, so the engines' pool connections are all counted.
  const monitor = createPostgresDatabase({ url: testDb.url });
  const groups: PidGroups = {
    node: () => [process.pid],
    postgres: () => databaseBackends(monitor, dbName),
  };
  async function pass(engine: TraceEngine) {
    let completed = 0;
    const before = await cpuSnapshot(groups);
    const started = performance.now();
    for (let at = 0; at < properties.length; at += batch) {
      for (const outcome of await engine.traceMany(properties.slice(at, at + batch)))
        if (outcome.status === 'completed') completed++;
    }
    const wallMs = performance.now() - started;
    const after = await cpuSnapshot(groups);
    const cpu = (group: string) => {
      let ms = 0;
      for (const [pid, used] of after[group] ?? []) ms += used - (before[group]?.get(pid) ?? used);
      return ms;
    };
    const n = properties.length;
    return {
      nodeUs: (cpu('node') * 1000) / n,
      postgresUs: (cpu('postgres') * 1000) / n,
      wallUs: (wallMs * 1000) / n,
      completed,
    };
  }
  await pass(engines.ref); // warm-up: JIT, caches, both engines
  await pass(engines.current);
  type Pass = Awaited<ReturnType<typeof pass>>;
  const runs: Record<'ref' | 'current', Pass[]> = { ref: [], current: [] };
  for (let p = 0; p < passes; p++) {
    for (const side of p % 2 === 0 ? (['ref', 'current'] as const) : (['current', 'ref'] as const)) {
      runs[side].push(await pass(engines[side]));
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const summary = (side: 'ref' | 'current') => ({
    nodeUsPerProperty: r1(median(runs[side].map((r) => r.nodeUs))),
    postgresUsPerProperty: r1(median(runs[side].map((r) => r.postgresUs))),
    wallUsPerProperty: r1(median(runs[side].map((r) => r.wallUs))),
    completed: runs[side][0]!.completed,
    passes: runs[side].map((r) => ({ node: r1(r.nodeUs), postgres: r1(r.postgresUs), wall: r1(r.wallUs) })),
  });
  const out = { ref: summary('ref'), current: summary('current') };
  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        refDir: values['ref-dir'],
        contacts,
        properties: properties.length,
        batch,
        ...out,
        // current − ref, µs of CPU per traced property (median of the passes).
        extraNodeUs: r1(out.current.nodeUsPerProperty - out.ref.nodeUsPerProperty),
        extraPostgresUs: r1(out.current.postgresUsPerProperty - out.ref.postgresUsPerProperty),
      },
      null,
      2,
    ),
  );
  await monitor.close();
} finally {
  await db.close();
  await testDb.drop();
}
