/**
 * Import and lookup benchmark against PostgreSQL (DATABASE_URL, default the local test
 * server), in a fresh database that is dropped afterwards:
 *   node packages/contacts/bench/import.bench.ts [rows=1000000]
 * 1. writes `rows` demo contacts (generateContacts, seed 1) to a temporary canonical CSV;
 * 2. imports it with importContacts: rows/s, CPU time per row of this process and of the
 *    database's PostgreSQL backends (from /proc, when PostgreSQL runs on this machine), and
 *    peak RSS (sampled every 50 ms);
 * 3. single-key findCandidates over 10,000 random stored keys: p50/p99 latency (ms);
 *    plus one 500-key batch lookup;
 * 4. the same-minutes reference: a bare COPY of the same rows (the file's fields as COPY
 *    text, written beforehand) into a table of text columns without indexes — PostgreSQL's
 *    ingest on this machine right now, with no parsing, normalising or index upkeep. The
 *    import's rate divided by it is comparable between runs on a drifting VM.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { CONTACT_COLUMNS, generateContacts } from '@skiptrace/demo';
import { createPostgresDatabase, encodeCopyValue } from '@skiptrace/storage';
import { createTestDatabaseUrl, testUrls } from '@skiptrace/testing';
import { findCandidates, importContacts, importSuppression } from '../src/index.ts';
import type { CandidateQuery } from '../src/index.ts';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const LOOKUPS = 10_000;
const COLUMNS = CONTACT_COLUMNS;

const field = (v: string | null): string => (v === null ? '' : /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The same rows as COPY text (tab-separated, for the bare COPY reference). */
async function writeCopyText(path: string): Promise<void> {
  const out = createWriteStream(path);
  let chunk = '';
  for (const row of generateContacts({ rows: ROWS, seed: 1 })) {
    chunk += `${COLUMNS.map((c) => encodeCopyValue(row[c])).join('\t')}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await finished(out);
}

/**
 * ROWS distinct US numbers, one per line, in a scattered order (a multiplicative step
 * through the line numbers of 100 area codes), as the registry's flat file lists them.
 */
async function writeNumbers(path: string): Promise<void> {
  const out = createWriteStream(path);
  const areas = [201, 202, 203, 205, 206, 207, 208, 209, 210, 212, 213, 214, 215, 216, 217, 218, 219, 224, 225, 228];
  let chunk = '';
  for (let i = 0; i < ROWS; i++) {
    const n = (i * 7_919) % ROWS;
    const area = areas[n % areas.length]!;
    const local = Math.floor(n / areas.length);
    chunk += `${area}${200 + (local % 800)}${String(Math.floor(local / 800) % 10_000).padStart(4, '0')}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await finished(out);
}

async function writeDemoCsv(path: string): Promise<void> {
  const out = createWriteStream(path);
  let chunk = `${COLUMNS.join(',')}\n`;
  for (const row of generateContacts({ rows: ROWS, seed: 1 })) {
    chunk += `${COLUMNS.map((c) => field(row[c])).join(',')}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await finished(out);
}

/** utime + stime (ms) of a local process, or undefined once it has gone. */
async function processCpu(pid: number): Promise<number | undefined> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100); // USER_HZ
  } catch {
    return undefined; // not local, or gone
  }
}

/**
 * CPU time (ms) of this database's PostgreSQL backends over an interval: client backends
 * and the parallel workers an index build starts (from /proc; PostgreSQL on this machine
 * only, 0 otherwise). Wall-clock rates on a shared machine are noisy, CPU time per row
 * much less so. Backends come and go during an import (pool connections, parallel
 * workers), so they are sampled every 50 ms from a connection of its own (left out) and
 * each counts from its CPU at start (0 if it started later) to the last value seen: a
 * process's last 50 ms before it exits may be missed. `exclude`: backends of the bench's
 * own probes.
 */
async function backendCpuMeter(
  url: string,
  exclude: number[] = [],
): Promise<{ start(): Promise<void>; stop(): Promise<number> }> {
  const meter = createPostgresDatabase({ url, max: 1 });
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let sampling: Promise<void> = Promise.resolve();
  async function sample(into: Map<number, number>): Promise<void> {
    const { rows } = await meter.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database()
       AND backend_type IN ('client backend', 'parallel worker') AND pid <> pg_backend_pid()`,
    );
    for (const { pid } of rows) {
      if (exclude.includes(pid)) continue;
      const cpu = await processCpu(pid);
      if (cpu !== undefined) into.set(pid, cpu);
    }
  }
  return {
    async start() {
      await sample(first);
      timer = setInterval(() => {
        sampling = sampling.then(() => sample(last)).catch(() => undefined);
      }, 50);
    },
    async stop() {
      clearInterval(timer);
      await sampling;
      await sample(last);
      await meter.close();
      let ms = 0;
      for (const [pid, cpu] of last) ms += cpu - (first.get(pid) ?? 0);
      return ms;
    },
  };
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const dir = await mkdtemp(join(tmpdir(), 'contacts-bench-'));
const database = await createTestDatabaseUrl('contacts_bench', testUrls().databaseUrl);
const db = createPostgresDatabase({ url: database.url });
try {
  await db.migrate();
  const csv = join(dir, 'contacts.csv');
  await writeDemoCsv(csv);
  console.log(`file: ${ROWS} rows, ${mb((await stat(csv)).size)}`);

  /** Runs one load with its wall time, Node and PostgreSQL CPU and the load average. */
  async function measure<T>(run: () => Promise<T>, exclude: number[] = []) {
    const pgMeter = await backendCpuMeter(database.url, exclude);
    await pgMeter.start();
    const load = loadavg()[0]!;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const result = await run();
    const cpu = process.cpuUsage(cpuBefore);
    const seconds = (performance.now() - started) / 1000;
    const pgMs = await pgMeter.stop();
    return { result, seconds, nodeMs: (cpu.user + cpu.system) / 1000, pgMs, load, loadEnd: loadavg()[0]! };
  }
  const perRow = (ms: number, rows: number): string => `${((ms * 1000) / rows).toFixed(2)} µs/row`;

  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  // Lookups while the import runs, one every 20 ms on a connection of their own: how long
  // one waits at worst (an import into an empty store swaps its table in at the end).
  const prober = createPostgresDatabase({ url: database.url, max: 1 });
  const probe: CandidateQuery = {
    addressKey: '28|SAINT JAMES ROW|63101',
    number: '28',
    zip5: '63101',
    state: 'MO',
    city: 'SAINT LOUIS',
  };
  const during: number[] = [];
  let importing = true;
  const probing = (async () => {
    while (importing) {
      const t = performance.now();
      await findCandidates(prober, [probe]);
      during.push(performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  // When the last batch was written: the rest is the end of the import (the bulk load's
  // index builds, ANALYZE and swap; the staged import's ANALYZE).
  let lastBatch = 0;
  const importStart = performance.now();
  const proberPid = (await prober.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const run = await measure(
    () =>
      importContacts(db, createReadStream(csv, { highWaterMark: 256 * 1024 }), {
        format: 'csv',
        onProgress: () => (lastBatch = performance.now()),
      }),
    [proberPid],
  );
  importing = false;
  await probing;
  await prober.close();
  clearInterval(sampler);
  const { result: counts, seconds } = run;
  console.log(
    `import: ${JSON.stringify(counts)} in ${seconds.toFixed(2)} s = ${Math.round(counts.read / seconds)} rows/s ` +
      `(load average ${run.load.toFixed(2)} at start, ${run.loadEnd.toFixed(2)} at end)`,
  );
  console.log(
    `cpu: node ${perRow(run.nodeMs, counts.read)}, PostgreSQL backends ${run.pgMs > 0 ? perRow(run.pgMs, counts.read) : 'n/a'}`,
  );
  console.log(`rss: before ${mb(rssBefore)}, peak during import ${mb(peakRss)}`);
  console.log(
    `phases: batches written by ${((lastBatch - importStart) / 1000).toFixed(2)} s, ` +
      `the rest ${((importStart + seconds * 1000 - lastBatch) / 1000).toFixed(2)} s`,
  );
  during.sort((a, b) => a - b);
  console.log(
    `one-key lookups during the import (${during.length}): p50 ${percentile(during, 0.5).toFixed(2)} ms, ` +
      `p99 ${percentile(during, 0.99).toFixed(2)} ms, max ${during[during.length - 1]!.toFixed(2)} ms`,
  );

  // No ANALYZE here: the import ends with one (included in its time), as a user's does.
  const { rows } = await db.query<{ k: string; state: string; city: string; zip5: string }>(
    `SELECT address_key AS k, state, city, zip5 FROM contacts TABLESAMPLE SYSTEM (5) ORDER BY random() LIMIT ${LOOKUPS}`,
  );
  const queries: CandidateQuery[] = rows.map((r) => ({
    addressKey: r.k,
    number: r.k.slice(0, r.k.indexOf('|')),
    zip5: r.zip5,
    state: r.state,
    city: r.city,
  }));
  for (const query of queries.slice(0, 200)) await findCandidates(db, [query]); // warm-up
  const latencies: number[] = [];
  let found = 0;
  for (const query of queries) {
    const t = performance.now();
    found += (await findCandidates(db, [query]))[0]!.length;
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  console.log(
    `findCandidates single query, three blocking keys (${queries.length} lookups, ${(found / queries.length).toFixed(2)} candidates/query): ` +
      `p50 ${percentile(latencies, 0.5).toFixed(3)} ms, p99 ${percentile(latencies, 0.99).toFixed(3)} ms`,
  );
  const t = performance.now();
  const batch = await findCandidates(db, queries.slice(0, 500));
  console.log(
    `findCandidates 500 queries in one call: ${(performance.now() - t).toFixed(1)} ms (${batch.flat().length} candidates)`,
  );

  const copyText = join(dir, 'contacts.copy');
  await writeCopyText(copyText);
  await db.query(`CREATE TABLE bare_copy (${COLUMNS.map((c) => `${c} text`).join(', ')})`);
  const bareLoad = loadavg()[0]!;
  const bareStarted = performance.now();
  const copied = await db.copyText('bare_copy', [...COLUMNS], createReadStream(copyText, { encoding: 'utf8' }));
  const bareSeconds = (performance.now() - bareStarted) / 1000;
  console.log(
    `reference, bare COPY of the same rows into text columns without indexes: ${copied} rows in ${bareSeconds.toFixed(2)} s = ` +
      `${Math.round(copied / bareSeconds)} rows/s (load average ${bareLoad.toFixed(2)}); import / bare COPY = ` +
      `${(counts.read / seconds / (copied / bareSeconds)).toFixed(3)}`,
  );

  // The suppression import: as many distinct numbers as contact rows, one per line (the
  // registry's flat file), into the empty list.
  const numbers = join(dir, 'numbers.txt');
  await writeNumbers(numbers);
  const dnc = await measure(() =>
    importSuppression(db, createReadStream(numbers, { encoding: 'utf8' }), { kind: 'dnc' }),
  );
  const listed = dnc.result;
  console.log(
    `suppression import: ${JSON.stringify(listed)} in ${dnc.seconds.toFixed(2)} s = ${Math.round(listed.read / dnc.seconds)} rows/s ` +
      `(load average ${dnc.load.toFixed(2)}); cpu: node ${perRow(dnc.nodeMs, listed.read)}, PostgreSQL backends ` +
      `${dnc.pgMs > 0 ? perRow(dnc.pgMs, listed.read) : 'n/a'}; import / bare COPY = ` +
      `${(listed.read / dnc.seconds / (copied / bareSeconds)).toFixed(3)}`,
  );
} finally {
  await db.close();
  await database.drop();
  await rm(dir, { recursive: true, force: true });
}
