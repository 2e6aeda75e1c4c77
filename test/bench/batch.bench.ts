/**
 * Batch benchmark, as a new user meets it: N demo contacts imported into a fresh database
 * (no manual ANALYZE: whatever the import leaves is what the first batch gets), then a CSV
 * of noisy variants of them uploaded to the running system, traced with the real engine,
 * and the CSV export downloaded. The batch rows, per ten: one at an address nobody lives
 * at, one without owner names (address only), eight with the address written another way
 * (suffix and directionals spelled out or abbreviated, unit designator, case, ZIP+4, the
 * state's name) and the owner name in other case (demoQueryFor).
 *
 *   node test/bench/batch.bench.ts [--rows 1000000] [--contacts 1000000] [--batches 1]
 *     [--engine real|fake] [--port 18090] [--probe-rate 20]
 *     [--chunk 500] [--window 8] [--prefetch 4] [--batch-worker process|inline]
 *     [--database NAME]   keep the world in database NAME and reuse it on later runs of
 *                         this or the sync bench with the same --contacts/--owners
 *   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" (or --trace-gc, --heapsnapshot-signal=…):
 *                         more node flags for the system and its batch worker process
 *
 * --engine real (default): the one-process system (services/standalone: gateway with the
 * batch API, sync worker, chunk worker, dispatcher; the chunk worker in a child process of
 * its own unless --batch-worker inline, SKIPTRACE_BATCH_WORKER) as a child process on the local
 * PostgreSQL, RabbitMQ and Redis; while each batch runs, synchronous POST
 * /property/skiptrace probes go out at --probe-rate per second (open loop) and their
 * p50/p99 is reported. Each batch is submitted by a new API client of its own account,
 * so a later batch reuses nothing of an earlier one (--batches 2: is the first batch,
 * right after the import, as fast as the next?).
 * --engine fake: the batch API and chunk worker in this process with the tests'
 * deterministic fake engine, no contacts and no probes: the pipeline alone.
 *
 * Before the batches it times the production engine tracing one property at a time right
 * after the import (the lookup p50/p99 of the sync path without HTTP and broker).
 * Prints, per batch and stage (upload, trace, export), the time and the CPU µs per row of
 * each process group (node: the system under test's main process; nodeBatch: its batch
 * chunk worker process, when it has one; postgres: this database's backends
 * plus the server's checkpointer, background and WAL writers; rabbitmq; bench: this
 * process), the peak RSS of the largest process of each group, and the match rate.
 * A fresh database, vhost and Redis prefix per run, dropped at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, openSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile, appendFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createAccounts } from '@skiptrace/accounts';
import { demoQueryFor, generateContacts, type ContactRow } from '@skiptrace/demo';
import { shippedStart } from './shipped.ts';
import { BATCH_HEADER, SEED, batchRow, benchDatabase, csvField, loadBenchWorld } from './bench-world.ts';
import { createTestVhost, deleteByPrefix, stopChild, testUrls, waitUntil } from '@skiptrace/testing';
import {
  buildApp,
  createContactTraceEngine,
  createPostgresDatabase,
  createBus,
  fakeEngine,
  silentLogger,
  startBatchWorker,
} from '@skiptrace/batches/bench-system';
import { descendantsOf, pidsOf, sampleProcesses, type PidGroups } from '@skiptrace/testing/cpu-time';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    contacts: { type: 'string', default: '1000000' },
    batches: { type: 'string', default: '1' },
    engine: { type: 'string', default: 'real' },
    port: { type: 'string', default: '18090' },
    'probe-rate': { type: 'string', default: '20' },
    chunk: { type: 'string', default: '500' },
    window: { type: 'string', default: '8' },
    prefetch: { type: 'string', default: '4' },
    'batch-worker': { type: 'string', default: 'process' },
    owners: { type: 'boolean', default: false },
    database: { type: 'string' },
  },
});
/**
 * --owners: the owner model (#24): people with three addresses each and a roll of their
 * parcels instead of plain contacts (bench-world.ts). The batch is the same.
 */
const owners = values.owners;
const engine = values.engine;
if (engine !== 'real' && engine !== 'fake') throw new Error('--engine is real or fake');
const rows = Number(values.rows);
const contacts = engine === 'real' ? Number(values.contacts) : 0;
const batches = Number(values.batches);
const port = Number(values.port);
const probeRate = Number(values['probe-rate']);
const API = '/api/v1';
const BASE = `${API}/property/skiptrace/batches`;

function call(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Readable | string,
): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: systemPort, method, path, headers }, resolve);
    req.on('error', reject);
    if (typeof body === 'string') req.end(body);
    else if (body) body.pipe(req);
    else req.end();
  });
}

async function text(res: IncomingMessage): Promise<string> {
  let out = '';
  for await (const chunk of res) out += chunk;
  return out;
}

/** Writes the batch CSV to a file (a user uploads a file; generating it is not timed). */
async function writeBatchFile(path: string, variant: number): Promise<void> {
  await writeFile(path, `${BATCH_HEADER}\n`);
  let buf = '';
  let i = 0;
  while (i < rows) {
    // Wraps around the contacts when the batch is larger (or the fake engine has none).
    for (const row of generateContacts({ rows: Math.max(1, Math.min(contacts || rows, rows)), seed: SEED })) {
      if (++i > rows) break;
      buf += `${batchRow(row, i, variant).map(csvField).join(',')}\n`;
      if (buf.length > 1 << 20) {
        await appendFile(path, buf);
        buf = '';
      }
    }
  }
  await appendFile(path, buf);
}

/** A batch row's cells as one line of COPY text (tab-separated, escaped). */
const copyLine = (cells: readonly string[]) =>
  `${cells.map((c) => c.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')).join('\t')}\n`;

/**
 * The batch's same-minutes reference (#26): the batch's rows written with a bare COPY into a
 * plain table of text columns, then read back with bare keyset SELECTs of 10,000 rows, on the
 * same database. Seconds and CPU µs per row (PostgreSQL's backends and this process); the
 * COPY text is built before the clock starts.
 */
async function bareReference() {
  const columns = BATCH_HEADER.split(',');
  await db.query(`DROP TABLE IF EXISTS bench_reference`);
  await db.query(`CREATE TABLE bench_reference (n bigint PRIMARY KEY, ${columns.map((c) => `${c} text`).join(', ')})`);
  const chunks: string[] = [];
  let buf = '';
  let i = 0;
  while (i < rows) {
    for (const row of generateContacts({ rows: Math.max(1, Math.min(contacts || rows, rows)), seed: SEED })) {
      if (++i > rows) break;
      buf += `${i}\t${copyLine(batchRow(row, i, 0))}`;
      if (buf.length > 1 << 20) {
        chunks.push(buf);
        buf = '';
      }
    }
  }
  chunks.push(buf);
  // Every backend of the database, this process's own included (the COPY and SELECTs run on them).
  const backends = async () =>
    (await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [dbName])).rows.map(
      (r) => r.pid,
    );
  const sampler = sampleProcesses({ postgres: backends, bench: () => [process.pid] });
  const c0 = await sampler.cpuMs();
  const t0 = performance.now();
  await db.copyText('bench_reference', ['n', ...columns], chunks);
  const t1 = performance.now();
  const c1 = await sampler.cpuMs();
  let read = 0;
  for (let after = 0; ;) {
    const page = await db.query<{ n: string }>(`SELECT * FROM bench_reference WHERE n > $1 ORDER BY n LIMIT 10000`, [
      after,
    ]);
    if (page.rows.length === 0) break;
    read += page.rows.length;
    after = Number(page.rows.at(-1)!.n);
  }
  const t2 = performance.now();
  const c2 = await sampler.cpuMs();
  sampler.stop();
  await db.query(`DROP TABLE bench_reference`);
  if (read !== rows) throw new Error(`reference read ${read} rows, expected ${rows}`);
  const us = (a: Record<string, number>, b: Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const name of Object.keys(b)) out[name] = Math.round(((b[name]! - (a[name] ?? 0)) * 10_000) / rows) / 10;
    out.total = Math.round(Object.values(out).reduce((sum, v) => sum + v, 0) * 10) / 10;
    return out;
  };
  const s = (ms: number) => Math.round(ms / 10) / 100;
  return {
    seconds: { copy: s(t1 - t0), select: s(t2 - t1), total: s(t2 - t0) },
    cpuMicrosPerRow: { copy: us(c0, c1), select: us(c1, c2), all: us(c0, c2) },
  };
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * Open-loop synchronous requests at `rate` per second until stopped; latencies in ms, overall
 * and by the stage of the batch each request started in (stop(stages): the stages' start times).
 */
function startProbes(token: string, bodies: string[], rate: number) {
  const samples: { at: number; ms: number }[] = [];
  let errors = 0;
  let next = 0;
  const inFlight = new Set<Promise<void>>();
  const fire = () => {
    const body = bodies[next++ % bodies.length]!;
    const t = performance.now();
    const p = fetch(`http://127.0.0.1:${systemPort}${API}/property/skiptrace`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status === 200) samples.push({ at: t, ms: performance.now() - t });
        else errors++;
      })
      .catch(() => void errors++)
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  const timer = rate > 0 ? setInterval(fire, 1000 / rate) : undefined;
  const r = (ms: number) => Math.round(ms * 10) / 10;
  const summary = (list: { ms: number }[]) => {
    const sorted = list.map((x) => x.ms).sort((a, b) => a - b);
    return { p50ms: r(quantile(sorted, 0.5)), p99ms: r(quantile(sorted, 0.99)), maxMs: r(sorted.at(-1) ?? 0) };
  };
  return {
    async stop(stages: Record<string, number> = {}) {
      clearInterval(timer);
      await Promise.all(inFlight);
      const starts = Object.entries(stages).sort((a, b) => a[1] - b[1]);
      const byStage = Object.fromEntries(
        starts.map(([name, from], i) => {
          const to = starts[i + 1]?.[1] ?? Infinity;
          const list = samples.filter((x) => x.at >= from && x.at < to);
          return [name, { requests: list.length, ...summary(list) }];
        }),
      );
      return {
        requests: samples.length + errors,
        errors,
        ...summary(samples),
        ...(starts.length > 0 ? { byStage } : {}),
      };
    },
  };
}

let systemPort = port;
const testDb = await benchDatabase('bench_batch', values.database);
const vhost = await createTestVhost('bench-batch');
const redisPrefix = `bench-batch-${process.pid}:`;
const dir = await mkdtemp(join(tmpdir(), 'bench-batch-'));
const db = createPostgresDatabase({ url: testDb.url });
const dbName = testDb.name;
let child: ChildProcess | undefined;
const systemLog = join(tmpdir(), `bench-batch-system-${process.pid}.log`);
const cleanup: (() => Promise<unknown>)[] = [];
try {
  await db.migrate();
  // Probe bodies: noisy variants of stored rows spread over the file, taken during the import.
  const bodies: string[] = [];
  let importSeconds = 0;
  if (contacts > 0) {
    const stride = Math.max(1, Math.floor(contacts / 5000));
    const probe = (row: ContactRow, i: number) => {
      if (i % stride === 0) bodies.push(JSON.stringify(demoQueryFor(row, 8 + i)));
    };
    const world = await loadBenchWorld(db, contacts, owners, probe);
    importSeconds = world.seconds;
    console.log(
      world.reused
        ? `reused the world in ${dbName}: ${world.people} contacts, ${world.parcels} parcels`
        : `imported ${world.people} contacts and ${world.parcels} parcels in ${importSeconds.toFixed(1)} s ` +
            `(${Math.round(world.people / importSeconds)} rows/s, generating them included)`,
    );
  }

  // Lookup latency right after the import: the production engine tracing one property at a
  // time (standardise, candidate lookup with suppression flags, ranking), 2,000 probes.
  let lookup: { p50ms: number; p99ms: number } | undefined;
  if (contacts > 0) {
    const engine = createContactTraceEngine(db);
    const times: number[] = [];
    for (let i = 0; i < 2200; i++) {
      const t = performance.now();
      await engine.trace(JSON.parse(bodies[i % bodies.length]!));
      if (i >= 200) times.push(performance.now() - t); // the first 200 warm up
    }
    times.sort((a, b) => a - b);
    const ms = (q: number) => Math.round(quantile(times, q) * 1000) / 1000;
    lookup = { p50ms: ms(0.5), p99ms: ms(0.99) };
    console.log(`one-property trace after the import: p50 ${lookup.p50ms} ms, p99 ${lookup.p99ms} ms`);
  }

  const files: string[] = [];
  for (let b = 0; b < batches; b++) {
    files.push(join(dir, `batch-${b}.csv`));
    await writeBatchFile(files[b]!, b);
  }
  console.log(`batch file: ${rows} rows, ${((await stat(files[0]!)).size / 1048576).toFixed(0)} MiB`);

  const batchEnv = {
    BATCH_MAX_ROWS: String(Math.max(rows, 1_000_000)),
    BATCH_CHUNK_SIZE: values.chunk,
    BATCH_CHUNKS_IN_FLIGHT: values.window,
    BATCH_PREFETCH: values.prefetch,
  };
  let nodePids: () => number[];
  let nodeBatchPids: () => number[] = () => [];
  let newToken: (name: string) => Promise<Record<string, string>>;
  if (engine === 'real') {
    // What `pnpm start` runs (its node flags included), from package.json.
    const start = await shippedStart();
    console.log(`system: ${start.command}`);
    // BENCH_NODE_ARGS (e.g. --cpu-prof --cpu-prof-dir=DIR): more node flags for the system
    // and its batch worker process, which inherits them.
    const nodeArgs = [...start.nodeFlags, ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
    child = spawn(process.execPath, [...nodeArgs, start.script], {
      env: {
        ...process.env,
        ...batchEnv,
        PORT: String(port),
        DATABASE_URL: testDb.url,
        AMQP_URL: vhost.url,
        REDIS_URL: testUrls().redisUrl,
        REDIS_PREFIX: redisPrefix,
        SKIPTRACE_DATA_DIR: testDb.dataDir ?? join(dir, 'data'),
        SKIPTRACE_DEMO_ROWS: '0',
        API_RATE_LIMIT_PER_MINUTE: '100000000',
        LOG_LEVEL: 'warn',
        SKIPTRACE_BATCH_WORKER: values['batch-worker'],
      },
      // Its log lines (LOG_LEVEL=warn: warnings and errors only) are kept for after the run.
      stdio: ['ignore', openSync(systemLog, 'w'), 'inherit'],
    });
    console.log(`system log: ${systemLog}`);
    await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok, {
      timeoutMs: 60_000,
      message: 'system ready',
    });
    nodePids = () => [child!.pid!];
    nodeBatchPids = () => descendantsOf(child!.pid!);
    const accounts = createAccounts(db);
    newToken = async (name) => {
      // A client of its own creates an account of its own: no reuse across batches.
      const { client, clientSecret } = await accounts.createClient({
        name,
        grantTypes: ['client_credentials'],
        scopes: 'read write',
      });
      const res = await fetch(`http://127.0.0.1:${port}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: clientSecret!,
          scope: 'read write',
        }),
      });
      const { access_token: token } = (await res.json()) as { access_token: string };
      return { authorization: `Bearer ${token}` };
    };
  } else {
    const bus = await createBus({ amqpUrl: vhost.url });
    const worker = await startBatchWorker({
      db,
      bus,
      engine: fakeEngine(),
      logger: silentLogger(),
      config: { prefetch: Number(values.prefetch), reuseTtlSeconds: 86_400 },
    });
    const app = buildApp(db, bus, {
      maxRows: Math.max(rows, 1_000_000),
      chunkSize: Number(values.chunk),
      chunksInFlight: Number(values.window),
    });
    const server = app.listen(0);
    await new Promise((r) => server.once('listening', r));
    systemPort = (server.address() as AddressInfo).port;
    cleanup.push(async () => {
      server.close();
      await worker.stop();
      await bus.close();
    });
    nodePids = () => [process.pid];
    newToken = async (name) => ({ 'x-test-account': name });
  }

  const groups: PidGroups = {
    node: () => nodePids(),
    nodeBatch: () => nodeBatchPids(),
    postgres: async () =>
      (
        await db.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
            WHERE (datname = $1 AND pid <> pg_backend_pid())
               OR backend_type IN ('checkpointer', 'background writer', 'walwriter')`,
          [dbName],
        )
      ).rows.map((r) => r.pid),
    rabbitmq: () => pidsOf('beam.smp'),
    ...(engine === 'real' ? { bench: () => [process.pid] } : {}),
  };
  /** CPU µs per batch row of each group between two readings of the sampler. */
  const perRow = (a: Record<string, number>, b: Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const name of Object.keys(b)) out[name] = Math.round(((b[name]! - (a[name] ?? 0)) * 1000) / rows);
    out.total = Object.values(out).reduce((sum, us) => sum + us, 0);
    return out;
  };

  const results = [];
  for (let b = 0; b < batches; b++) {
    const headers = await newToken(`bench-batch-${b}`);
    // The same probes with no batch running, just before: the reference for the figures below.
    let syncIdle: Awaited<ReturnType<ReturnType<typeof startProbes>['stop']>> | undefined;
    if (engine === 'real') {
      const idle = startProbes(headers.authorization!.slice(7), bodies, probeRate);
      await new Promise((r) => setTimeout(r, 10_000));
      syncIdle = await idle.stop();
    }
    const referenceBefore = await bareReference();
    const sampler = sampleProcesses(groups);
    const c0 = await sampler.cpuMs();
    const probes = engine === 'real' ? startProbes(headers.authorization!.slice(7), bodies, probeRate) : undefined;
    const t0 = performance.now();
    const up = await call('POST', BASE, { ...headers, 'content-type': 'text/csv' }, createReadStream(files[b]!));
    const accepted = JSON.parse(await text(up)) as { id: string };
    if (up.statusCode !== 202) throw new Error(`upload answered ${up.statusCode}: ${JSON.stringify(accepted)}`);
    const t1 = performance.now();
    const c1 = await sampler.cpuMs();
    let summary: Record<string, number | string>;
    for (;;) {
      summary = JSON.parse(await text(await call('GET', `${BASE}/${accepted.id}`, headers))) as typeof summary;
      if (summary.status === 'completed') break;
      if (summary.status !== 'queued' && summary.status !== 'running') throw new Error(`batch ended ${summary.status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const t2 = performance.now();
    const c2 = await sampler.cpuMs();
    const ex = await call('GET', `${BASE}/${accepted.id}/results`, { ...headers, accept: 'text/csv' });
    let lines = 0;
    for await (const chunk of ex as AsyncIterable<Buffer>) {
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    }
    const t3 = performance.now();
    const c3 = await sampler.cpuMs();
    const sync = await probes?.stop({ upload: t0, trace: t1, export: t2 });
    const peakRssMiB = sampler.stop();
    if (lines !== rows + 1) throw new Error(`export had ${lines} lines, expected ${rows + 1}`);
    const referenceAfter = await bareReference();
    const s = (ms: number) => Math.round(ms / 100) / 10;
    const processed = Number(summary.processed);
    const all = perRow(c0, c3);
    const referenceUs = referenceBefore.cpuMicrosPerRow.all.total! + referenceAfter.cpuMicrosPerRow.all.total!;
    const referenceSeconds = referenceBefore.seconds.total + referenceAfter.seconds.total;
    results.push({
      batch: b + 1,
      seconds: { upload: s(t1 - t0), trace: s(t2 - t1), export: s(t3 - t2), total: s(t3 - t0) },
      rowsPerSecond: Math.round(rows / ((t3 - t0) / 1000)),
      cpuMicrosPerRow: { upload: perRow(c0, c1), trace: perRow(c1, c2), export: perRow(c2, c3), all },
      peakRssMiB,
      // The same rows' bare COPY + SELECT just before and just after: what the batch costs beside them.
      reference: { before: referenceBefore, after: referenceAfter },
      ratioToReference: {
        seconds: Math.round(((t3 - t0) / 1000 / (referenceSeconds / 2)) * 10) / 10,
        cpuPerRow: Math.round((all.total! / (referenceUs / 2)) * 10) / 10,
      },
      matchRate: Math.round((Number(summary.matched) / processed) * 1000) / 10,
      counts: {
        processed,
        matched: summary.matched,
        no_match: summary.no_match,
        failed: summary.failed,
        rejected: summary.rejected,
        reused: summary.reused,
      },
      ...(sync ? { syncWhileRunning: { rate: probeRate, ...sync }, syncIdleJustBefore: syncIdle } : {}),
    });
  }
  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString(),
        engine,
        contacts,
        importRowsPerSec: importSeconds > 0 ? Math.round(contacts / importSeconds) : undefined,
        lookupAfterImport: lookup,
        rows,
        chunk: Number(values.chunk),
        window: Number(values.window),
        prefetch: Number(values.prefetch),
        batchWorker: engine === 'real' ? values['batch-worker'] : undefined,
        batches: results,
      },
      null,
      2,
    ),
  );
} finally {
  for (const fn of cleanup) await fn().catch(() => undefined);
  if (child) await stopChild(child);
  await db.close();
  await testDb.drop();
  await vhost.drop();
  await deleteByPrefix(testUrls().redisUrl, redisPrefix).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
}
