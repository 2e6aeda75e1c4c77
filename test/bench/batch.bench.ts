/**
 * Batch benchmark: one process with the batch API and a chunk worker on the local
 * PostgreSQL and RabbitMQ (DATABASE_URL / AMQP_URL or the local defaults; a fresh
 * database and vhost per run). Uploads an N-row CSV over HTTP, waits until every row is
 * traced, downloads the CSV export, and prints the phase times, rows/s and peak RSS.
 *
 *   node test/bench/batch.bench.ts [--rows 1000000] [--chunk 500] [--window 8] [--prefetch 4]
 *
 * The TraceEngine is the deterministic in-process fake of the tests: the figures measure
 * the batch pipeline (parse, validate, COPY, chunk jobs, bulk updates, export), not matching.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import {
  buildApp,
  createPostgresDatabase,
  createRabbitBus,
  createTestDatabaseUrl,
  createTestVhost,
  fakeEngine,
  silentLogger,
  startBatchWorker,
} from '../../packages/batches/test/bench-system.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    chunk: { type: 'string', default: '500' },
    window: { type: 'string', default: '8' },
    prefetch: { type: 'string', default: '4' },
  },
});
const rows = Number(values.rows);
const BASE = '/api/v1/property/skiptrace/batches';

function* csvLines(n: number): Generator<string> {
  yield 'street_address,city,state,zip_code,first_name,last_name\n';
  let buf = '';
  for (let i = 1; i <= n; i++) {
    buf += `${i} Benchmark Ave,Austin,TX,${String(78700 + (i % 100))},Ann,Lee${i}\n`;
    if (buf.length > 64 * 1024) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

function call(port: number, method: string, path: string, body?: Readable, headers: Record<string, string> = {}) {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest({ port, method, path, headers }, resolve);
    req.on('error', reject);
    if (body) body.pipe(req);
    else req.end();
  });
}

async function text(res: IncomingMessage): Promise<string> {
  let out = '';
  for await (const chunk of res) out += chunk;
  return out;
}

const testDb = await createTestDatabaseUrl('batch_bench');
const vhost = await createTestVhost('batch-bench');
const db = createPostgresDatabase({ url: testDb.url });
await db.migrate();
const bus = await createRabbitBus({ url: vhost.url });
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
const port = (server.address() as AddressInfo).port;

try {
  const t0 = performance.now();
  const up = await call(port, 'POST', BASE, Readable.from(csvLines(rows)), { 'Content-Type': 'text/csv' });
  const accepted = JSON.parse(await text(up)) as { id: string; accepted: number };
  if (up.statusCode !== 202) throw new Error(`upload answered ${up.statusCode}: ${JSON.stringify(accepted)}`);
  const t1 = performance.now();
  for (;;) {
    const s = JSON.parse(await text(await call(port, 'GET', `${BASE}/${accepted.id}`))) as { status: string };
    if (s.status === 'completed') break;
    if (s.status !== 'queued' && s.status !== 'running') throw new Error(`batch ended ${s.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const t2 = performance.now();
  const ex = await call(port, 'GET', `${BASE}/${accepted.id}/results`, undefined, { Accept: 'text/csv' });
  let lines = 0;
  let bytes = 0;
  for await (const chunk of ex as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
  }
  const t3 = performance.now();
  if (lines !== rows + 1) throw new Error(`export had ${lines} lines, expected ${rows + 1}`);
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const total = t3 - t0;
  process.stdout.write(
    [
      `rows ${rows} (chunk ${values.chunk}, window ${values.window}, prefetch ${values.prefetch})`,
      `upload ${s(t1 - t0)} s, trace ${s(t2 - t1)} s, export ${s(t3 - t2)} s (${(bytes / 1048576).toFixed(0)} MiB)`,
      `total ${s(total)} s, ${Math.round(rows / (total / 1000))} rows/s end to end`,
      `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (one process: API + worker)`,
    ].join('\n') + '\n',
  );
} finally {
  server.close();
  await worker.stop();
  await bus.close();
  await db.close();
  await testDb.drop();
  await vhost.drop();
}
