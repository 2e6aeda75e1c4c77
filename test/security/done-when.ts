/**
 * #22's "done when" figures, measured against the one-process system (`./run start`'s
 * services/standalone/src/main.ts, a child process of this script) on the real engines: a
 * fresh PostgreSQL database, a fresh RabbitMQ vhost and a Redis key prefix of its own, the
 * batch worker in its own child process as `./run start` runs it.
 *
 *   node test/security/done-when.ts [--rows 1000] [--cell-chars 200] [--json]
 *
 * 1. 5 MB of key-explosion NDJSON (every line brings two new keys, the issue's shape):
 *    answered (ingested or refused past BATCH_MAX_COLUMNS) within 10 s.
 * 2. 5 MB of the widest batch the limits allow (200 columns) ingested within 10 s.
 * 3. A brotli decompression bomb (blank lines, the issue's shape) refused within 10 s, and
 *    the server's CPU over the next 20 s.
 * 4. Six accounts each upload a batch of the widest rows (200 columns, default 1,000 rows of
 *    ~40 KB: ~40 MB, an export as large as the issue's 56.9 MB one), all traced, then export
 *    them at once: peak RSS of the server process.
 * Every address is loopback; the script installs the loopback guard.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import { constants, createBrotliCompress } from 'node:zlib';
import { installLoopbackGuard, loopbackViolations } from '@skiptrace/testing/loopback-guard';
import {
  clientCredentialsToken,
  createTestDatabaseUrl,
  createTestVhost,
  deleteByPrefix,
  freePort,
  randomPrefix,
  stopChild,
  testUrls,
} from '@skiptrace/testing';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    /** Rows of the export batch (200 columns of cell-chars characters each: ~40 KB a row by default). */
    rows: { type: 'string', default: '1000' },
    'cell-chars': { type: 'string', default: '200' },
    json: { type: 'boolean', default: false },
  },
});
installLoopbackGuard();

const ADMIN_TOKEN = `done-when-${Date.now()}-admin-token`;
const root = join(import.meta.dirname, '..', '..');
const urls = testUrls();
const db = await createTestDatabaseUrl('done_when');
const vhost = await createTestVhost('done-when');
const dataDir = await mkdtemp(join(tmpdir(), 'skiptrace-done-when-'));
const port = await freePort();
const redisPrefix = randomPrefix('done-when');
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['--max-semi-space-size=16', 'services/standalone/src/main.ts'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    AUTH_ISSUER: base,
    DATABASE_URL: db.url,
    AMQP_URL: vhost.url,
    REDIS_URL: urls.redisUrl,
    REDIS_PREFIX: redisPrefix,
    SKIPTRACE_DATA_DIR: dataDir,
    SKIPTRACE_DEMO_ROWS: '200',
    SKIPTRACE_ADMIN_TOKEN: ADMIN_TOKEN,
    SKIPTRACE_WEBHOOK_LOOPBACK_ONLY: 'true',
    API_RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const pid = server.pid!;

/** Resident set and its peak (VmHWM), MiB, and CPU seconds (user + system) of a process. */
async function proc(p: number) {
  const status = await readFile(`/proc/${p}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  const stat = (await readFile(`/proc/${p}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return {
    rssMiB: kib('VmRSS') / 1024,
    peakMiB: kib('VmHWM') / 1024,
    cpuS: (Number(stat[11]) + Number(stat[12])) / 100,
  };
}
/** The server's child processes (the batch worker). */
async function children(): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text.trim().split(/\s+/).filter(Boolean).map(Number);
}
const ms = (started: number) => Math.round(performance.now() - started);
const sleep = (t: number) => new Promise((resolve) => setTimeout(resolve, t));

const figures: Record<string, unknown> = {
  date: new Date().toISOString(),
  load: loadavg().map((l) => Math.round(l * 100) / 100),
  cores: cpus().length,
  engines: 'PostgreSQL, RabbitMQ (own vhost), Redis (own prefix); batch worker in a child process',
};
try {
  for (let i = 0; ; i++) {
    const ready = await fetch(`${base}/readyz`).catch(() => undefined);
    if (ready?.status === 200) break;
    if (i > 600 || server.exitCode !== null) throw new Error('the system did not become ready');
    await sleep(100);
  }
  /** A client of its own account (RFC 7591 registration makes one per client) and its token. */
  async function account(): Promise<string> {
    const res = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({
        client_name: 'done-when',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: 'read write',
      }),
    });
    if (res.status !== 201) throw new Error(`registration: ${res.status} ${await res.text()}`);
    const { client_id, client_secret } = (await res.json()) as { client_id: string; client_secret: string };
    return clientCredentialsToken(base, { clientId: client_id, clientSecret: client_secret });
  }
  const upload = async (token: string, body: Uint8Array | string, headers: Record<string, string>) => {
    const started = performance.now();
    const res = await fetch(`${base}/api/v1/property/skiptrace/batches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...headers },
      body,
    });
    const answer = (await res.json()) as { id?: string; error?: number; message?: string };
    return { status: res.status, ms: ms(started), answer };
  };
  const tokens = await Promise.all(Array.from({ length: 6 }, account));
  const address = (i: number) =>
    `"street_address":"${100 + (i % 9000)} Main St","city":"Austin","state":"TX","zip_code":"78701"`;

  // 1. Key explosion: every line two new keys, 5 MB.
  const explosion: string[] = [];
  for (let i = 0, size = 0; size < 5_000_000; i++) {
    const line = `{${address(i)},"a${i}":"x","b${i}":"y"}`;
    explosion.push(line);
    size += line.length + 1;
  }
  const exploded = await upload(tokens[0]!, explosion.join('\n'), { 'content-type': 'application/x-ndjson' });
  figures.keyExplosion = { bytes: explosion.join('\n').length, lines: explosion.length, ...exploded };

  // 2. 5 MB of the widest rows the limits allow: 200 columns.
  const wideBatch = (rows: number, cell: (c: number, i: number) => string) =>
    Array.from({ length: rows }, (_, i) => {
      const extra = Array.from({ length: 196 }, (_, c) => `"column_${c}":"${cell(c, i)}"`).join(',');
      return `{${address(i)},${extra}}`;
    }).join('\n');
  const fiveMb = wideBatch(1_150, (c, i) => `v${c}-${i}`);
  const ingested = await upload(tokens[0]!, fiveMb, { 'content-type': 'application/x-ndjson' });
  figures.widestBatch5MB = { bytes: fiveMb.length, rows: 1_150, columns: 200, ...ingested };

  // 3. The bomb: 1 GiB of blank lines in a few KB of brotli.
  const blank = Buffer.alloc(64 * 1024 * 1024, '\n');
  const compressor = createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  const parts: Buffer[] = [];
  compressor.on('data', (c: Buffer) => parts.push(c));
  for (let i = 0; i < 16; i++) if (!compressor.write(blank)) await once(compressor, 'drain');
  compressor.end();
  await once(compressor, 'end');
  const bomb = Buffer.concat(parts);
  const before = await proc(pid);
  const refused = await upload(tokens[1]!, bomb, { 'content-type': 'text/csv', 'content-encoding': 'br' });
  const at = await proc(pid);
  await sleep(20_000);
  const after = await proc(pid);
  figures.bomb = {
    compressedBytes: bomb.length,
    expandsTo: 16 * blank.length,
    ...refused,
    serverCpuSecondsDuring: Math.round((at.cpuS - before.cpuS) * 100) / 100,
    serverCpuSecondsNext20s: Math.round((after.cpuS - at.cpuS) * 100) / 100,
  };

  // 4. Six accounts, each with a batch of the widest rows, export at once.
  const chars = Number(values['cell-chars']);
  const rows = Number(values.rows);
  const wide = wideBatch(rows, (c, i) => `${c}-${i}-`.padEnd(chars, 'x'));
  const uploadStarted = performance.now();
  const uploads = await Promise.all(
    tokens.map((token) => upload(token, wide, { 'content-type': 'application/x-ndjson' })),
  );
  for (const res of uploads)
    if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(res.answer)}`);
  const batches = uploads.map((res) => res.answer.id!);
  figures.exportBatches = { each: { bytes: wide.length, rows, columns: 200 }, uploadedInMs: ms(uploadStarted) };
  const traceStarted = performance.now();
  for (const [i, id] of batches.entries()) {
    for (;;) {
      const res = await fetch(`${base}/api/v1/property/skiptrace/batches/${id}`, {
        headers: { authorization: `Bearer ${tokens[i]}` },
      });
      const status = ((await res.json()) as { status: string }).status;
      if (status === 'completed' || status === 'failed') break;
      if (performance.now() - traceStarted > 900_000) throw new Error(`batch ${id} still ${status}`);
      await sleep(500);
    }
  }
  const traceMs = ms(traceStarted);
  const rssBefore = await proc(pid);
  let peak = rssBefore.rssMiB;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, (await proc(pid)).rssMiB);
      await sleep(50);
    }
  })();
  const exportStarted = performance.now();
  const exports = await Promise.all(
    batches.map(async (id, i) => {
      const res = await fetch(`${base}/api/v1/property/skiptrace/batches/${id}/results?format=csv`, {
        headers: { authorization: `Bearer ${tokens[i]}` },
      });
      let bytes = 0;
      for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
      return { status: res.status, bytes };
    }),
  );
  const exportMs = ms(exportStarted);
  sampling = false;
  await sampler;
  const end = await proc(pid);
  figures.sixExports = {
    batchesTracedInMs: traceMs,
    statuses: exports.map((e) => e.status),
    bytesEach: exports.map((e) => e.bytes),
    ms: exportMs,
    serverRssBeforeMiB: Math.round(rssBefore.rssMiB),
    serverRssPeakSampledMiB: Math.round(peak),
    serverRssPeakLifetimeMiB: Math.round(end.peakMiB),
    workerRssMiB: await Promise.all((await children()).map(async (c) => Math.round((await proc(c)).rssMiB))),
  };
  figures.offLoopback = loopbackViolations().length;
} finally {
  await stopChild(server);
  await rm(dataDir, { recursive: true, force: true });
  await db.drop();
  await vhost.drop();
  await deleteByPrefix(urls.redisUrl, redisPrefix);
}
if (values.json) console.log(JSON.stringify(figures, null, 2));
else for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${JSON.stringify(v)}`);
