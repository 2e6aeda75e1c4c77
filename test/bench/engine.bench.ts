/**
 * The trace engine alone, plain contacts beside the owner model in the same minutes (#24's
 * "≤ 1.25× the CPU per row"): for each world (bench-world.ts) a fresh database gets the
 * people (and, for owners, the roll), then the batch's properties are traced in chunks as
 * the batch chunk worker does (`traceMany`, --chunk rows at a time, one at a time), and the
 * CPU per row of this process (Node: the engine) and of the database's backends is printed.
 * Without HTTP, broker, result storage or export: what the worlds' difference costs the trace.
 *
 *   node test/bench/engine.bench.ts [--contacts 200000] [--rows 100000] [--chunk 500] [--rounds 2]
 *     [--statements]
 *
 * Rounds alternate plain and owners on the same two databases (after one warm-up pass each).
 * --statements: the engine's statements one at a time on one connection, and after each
 * round the database's CPU µs per row of each statement (by its first words), the rows it
 * returned per row traced and how often it ran: where the worlds' difference goes in
 * PostgreSQL. (The statements the engine runs side by side then wait for each other, so
 * the round's time is longer than the batch's.)
 */
import { parseArgs } from 'node:util';
import { importContacts, importProperties } from '@skiptrace/contacts';
import type { Property } from '@skiptrace/contracts';
import { createContactTraceEngine, createPostgresDatabase } from '@skiptrace/batches/bench-system';
import { createTestDatabaseUrl } from '@skiptrace/testing';
import { databaseBackends, processCpuMs, sampleProcesses } from '@skiptrace/testing/cpu-time';
import { batchProperties, benchPeople, benchRoll } from './bench-world.ts';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '200000' },
    rows: { type: 'string', default: '100000' },
    chunk: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '2' },
    statements: { type: 'boolean', default: false },
  },
});
const contacts = Number(values.contacts);
const rows = Number(values.rows);
const chunk = Number(values.chunk);
const rounds = Number(values.rounds);

const properties: Property[] = [...batchProperties(rows, contacts)];
interface World {
  name: string;
  db: ReturnType<typeof createPostgresDatabase>;
  testDb: Awaited<ReturnType<typeof createTestDatabaseUrl>>;
  engine: ReturnType<typeof createContactTraceEngine>;
  /** --statements: each statement's backend CPU ms, rows returned and runs, since the last report. */
  statements?: Map<string, { ms: number; rows: number; runs: number }>;
}

type Db = ReturnType<typeof createPostgresDatabase>;
/**
 * --statements: a one-connection database whose queries run one at a time, each one's
 * backend CPU (from /proc) added to `statements` under the statement's first words.
 */
async function attributed(url: string, statements: NonNullable<World['statements']>): Promise<Db> {
  const db = createPostgresDatabase({ url, max: 1 });
  // The pool may close its idle connection (while the other world is imported): the
  // backend is asked for again when the one known has gone.
  const backend = async () => (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  let pid = await backend();
  let turn: Promise<void> = Promise.resolve();
  const query = async <T>(text: string, params?: unknown[]) => {
    const before = turn;
    let done!: () => void;
    turn = new Promise((resolve) => (done = resolve));
    await before;
    try {
      if (processCpuMs(pid) === 0) pid = await backend();
      const started = processCpuMs(pid);
      const result = await db.query<T>(text, params);
      const key = text.replace(/\s+/g, ' ').trim().slice(0, 60);
      const entry = statements.get(key) ?? { ms: 0, rows: 0, runs: 0 };
      entry.ms += processCpuMs(pid) - started;
      entry.rows += result.rows.length;
      entry.runs++;
      statements.set(key, entry);
      return result;
    } finally {
      done();
    }
  };
  return new Proxy(db, { get: (target, name) => (name === 'query' ? query : target[name as keyof Db]) });
}
const worlds: World[] = [];
/** The one-connection databases of --statements, closed with the worlds. */
const tracing: Db[] = [];
for (const owners of [false, true]) {
  const testDb = await createTestDatabaseUrl(owners ? 'bench_engine_owners' : 'bench_engine_plain');
  const db = createPostgresDatabase({ url: testDb.url });
  await db.migrate();
  const t = performance.now();
  await importContacts(db, benchPeople(contacts, owners), { format: 'ndjson', source: 'bench' });
  if (owners) await importProperties(db, benchRoll(contacts), { format: 'csv', source: 'bench-roll' });
  console.log(`${owners ? 'owners' : 'plain'}: imported in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const statements = values.statements ? new Map() : undefined;
  const traceDb = statements ? await attributed(testDb.url, statements) : db;
  if (traceDb !== db) tracing.push(traceDb);
  worlds.push({ name: owners ? 'owners' : 'plain', db, testDb, engine: createContactTraceEngine(traceDb), statements });
}

/** Traces every property, chunk by chunk; CPU µs per row of this process and the database's backends. */
async function pass(world: World) {
  const sampler = sampleProcesses({
    node: () => [process.pid],
    postgres: () => databaseBackends(world.db, world.testDb.name),
  });
  const c0 = await sampler.cpuMs();
  const t0 = performance.now();
  let results = 0;
  for (let i = 0; i < properties.length; i += chunk) {
    for (const outcome of await world.engine.traceMany(properties.slice(i, i + chunk)))
      results += outcome.results.length;
  }
  const seconds = (performance.now() - t0) / 1000;
  const c1 = await sampler.cpuMs();
  sampler.stop();
  const us = (name: string) => Math.round(((c1[name]! - (c0[name] ?? 0)) * 1000) / rows);
  for (const [key, s] of [...(world.statements ?? [])].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(
      `  ${world.name.padEnd(7)} ${((s.ms * 1000) / rows).toFixed(1).padStart(6)} µs/row  ${(s.rows / rows).toFixed(2).padStart(5)} rows/row  ${String(s.runs).padStart(5)} runs  ${key}`,
    );
  }
  world.statements?.clear();
  return { seconds: Math.round(seconds * 10) / 10, node: us('node'), postgres: us('postgres'), results };
}

try {
  for (const world of worlds) await pass(world); // warm-up: caches, plans
  const out: Record<string, unknown>[] = [];
  for (let r = 0; r < rounds; r++) {
    const [plain, owners] = [await pass(worlds[0]!), await pass(worlds[1]!)];
    const ratio = (owners.node + owners.postgres) / (plain.node + plain.postgres);
    out.push({ round: r + 1, plain, owners, ratio: Math.round(ratio * 100) / 100 });
    console.log(JSON.stringify(out.at(-1)));
  }
  console.log(JSON.stringify({ date: new Date().toISOString(), contacts, rows, chunk, rounds: out }, null, 2));
} finally {
  for (const db of tracing) await db.close();
  for (const w of worlds) {
    await w.db.close();
    await w.testDb.drop();
  }
}
