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
import { CONTACT_COLUMNS, generateContacts } from '@skiptrace/matching';
import { createPostgresDatabase, encodeCopyValue } from '@skiptrace/storage';
import type { Database } from '@skiptrace/storage';
import { createTestDatabaseUrl, testUrls } from '@skiptrace/testing';
import { findCandidates, importContacts } from '../src/index.ts';
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

/**
 * CPU time (ms) of this database's PostgreSQL client backends (not autovacuum), by pid,
 * from /proc (PostgreSQL on this machine only; empty otherwise). Wall-clock rates on a
 * shared machine are noisy, CPU time per row much less so.
 */
async function backendCpu(db: Database): Promise<Map<number, number>> {
  const cpu = new Map<number, number>();
  const { rows } = await db.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'",
  );
  const tick = 1000 / 100; // USER_HZ
  for (const { pid } of rows) {
    try {
      const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * tick);
    } catch {
      // not local, or gone
    }
  }
  return cpu;
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

  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  const pgBefore = await backendCpu(db);
  const load = loadavg()[0]!;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const counts = await importContacts(db, createReadStream(csv, { highWaterMark: 256 * 1024 }), { format: 'csv' });
  const cpu = process.cpuUsage(cpuBefore);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  let pgMs = 0;
  for (const [pid, ms] of await backendCpu(db)) pgMs += ms - (pgBefore.get(pid) ?? 0);
  const perRow = (ms: number): string => `${((ms * 1000) / counts.read).toFixed(2)} µs/row`;
  console.log(
    `import: ${JSON.stringify(counts)} in ${seconds.toFixed(2)} s = ${Math.round(counts.read / seconds)} rows/s ` +
      `(load average ${load.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end)`,
  );
  console.log(
    `cpu: node ${perRow((cpu.user + cpu.system) / 1000)}, PostgreSQL backends ${pgMs > 0 ? perRow(pgMs) : 'n/a'}`,
  );
  console.log(`rss: before ${mb(rssBefore)}, peak during import ${mb(peakRss)}`);

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
} finally {
  await db.close();
  await database.drop();
  await rm(dir, { recursive: true, force: true });
}
