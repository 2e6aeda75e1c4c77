// Benchmark: synchronous POST /api/v1/property/skiptrace through the whole path
// (JWT check, gateway, RabbitMQ, worker, PostgreSQL) against imported contacts.
//   node test/bench/sync.bench.ts [--contacts 1000000] [--seconds 15] [--connections 50]
//     [--topology standalone|services]   one process for everything (default), or auth,
//                                        gateway, worker and dispatcher as separate processes
//     [--loadgen wrk|autocannon]         closed-loop generator; wrk when installed (the 70 %
//                                        fixed-rate run always uses autocannon)
//     [--owners]                         the owner model: people with three addresses each
//                                        and a roll of their parcels (bench-world.ts)
//     [--database NAME]                  keep the world in database NAME and reuse it on later
//                                        runs of this or the batch bench (same --contacts/--owners)
// The system runs with the shipped node flags (shipped.ts: package.json's start script), then
// BENCH_NODE_ARGS (e.g. --cpu-prof).
// With wrk, a bare Express 5 JSON POST server (express-reference.ts) is loaded the same way
// just before and just after the capacity run: the capacity is also given as a ratio to it.
// `./run bench sync …` installs wrk first (Debian's package) when it can.
// Needs the local PostgreSQL, RabbitMQ and Redis (URLs from DATABASE_URL, AMQP_URL,
// REDIS_URL). Creates and drops its own database and vhost. Prints a JSON summary.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createAccounts } from '@skiptrace/accounts';
import { demoQueryFor, type ContactRow } from '@skiptrace/demo';
import { createPostgresDatabase } from '@skiptrace/storage';
import {
  clientCredentialsToken,
  createTestVhost,
  deleteByPrefix,
  stopChild,
  testUrls,
  waitUntil,
} from '@skiptrace/testing';
import { cpuPerRequest, cpuSnapshot, databaseBackends, type PidGroups, pidsOf } from '@skiptrace/testing/cpu-time';
import { benchDatabase, loadBenchWorld } from './bench-world.ts';
import { shippedStart } from './shipped.ts';
import { bareExpressCapacity } from './express-reference.ts';
import { runWrk, wrkAvailable, type LoadResult } from './wrk.ts';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '15' },
    connections: { type: 'string', default: '50' },
    port: { type: 'string', default: '18080' },
    topology: { type: 'string', default: 'standalone' },
    loadgen: { type: 'string', default: wrkAvailable() ? 'wrk' : 'autocannon' },
    owners: { type: 'boolean', default: false },
    database: { type: 'string' },
  },
});
const loadgen = values.loadgen;
if (loadgen !== 'wrk' && loadgen !== 'autocannon') throw new Error('--loadgen is wrk or autocannon');
const topology = values.topology;
if (topology !== 'standalone' && topology !== 'services') throw new Error('--topology is standalone or services');
const contacts = Number(values.contacts);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const port = Number(values.port);

const testDb = await benchDatabase('bench_sync', values.database);
const vhost = await createTestVhost('bench');
const dataDir = testDb.dataDir ?? (await mkdtemp(join(tmpdir(), 'bench-sync-')));
const children: ReturnType<typeof spawn>[] = [];
try {
  const db = createPostgresDatabase({ url: testDb.url });
  await db.migrate();
  // Queries: noisy variants of imported rows spread over the whole file.
  const stride = Math.max(1, Math.floor(contacts / 5000));
  const bodies: string[] = [];
  const probe = (row: ContactRow, i: number) => {
    if (i % stride === 0) bodies.push(JSON.stringify(demoQueryFor(row, i + 1)));
  };
  const world = await loadBenchWorld(db, contacts, values.owners, probe);
  const importSeconds = world.seconds;
  console.error(
    world.reused
      ? `reused the world in ${testDb.name}: ${world.people} contact rows, ${world.parcels} parcels`
      : `imported ${world.people} contact rows in ${importSeconds.toFixed(1)} s`,
  );

  // The shipped node flags (what `pnpm start`, the Dockerfile and k8s/ run), then the bench's own.
  const shipped = await shippedStart();
  const nodeArgs = [...shipped.nodeFlags, ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
  const env = {
    ...process.env,
    DATABASE_URL: testDb.url,
    AMQP_URL: vhost.url,
    REDIS_URL: testUrls().redisUrl,
    REDIS_PREFIX: `bench-sync-${process.pid}:`,
    SKIPTRACE_DATA_DIR: dataDir,
    SKIPTRACE_DEMO_ROWS: '0',
    // On, so each request pays for its Redis check, but far above what one account sends here.
    API_RATE_LIMIT_PER_MINUTE: '100000000',
    LOG_LEVEL: 'warn',
  };
  async function startProcess(script: string, processPort: number, extra: Record<string, string> = {}) {
    const child = spawn(process.execPath, [...nodeArgs, script], {
      env: { ...env, PORT: String(processPort), ...extra },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    const url = `http://127.0.0.1:${processPort}`;
    await waitUntil(async () => (await fetch(`${url}/readyz`)).ok, { timeoutMs: 60_000, message: `${script} ready` });
    return url;
  }
  let base: string;
  let issuer: string;
  let client: { clientId: string; clientSecret: string };
  if (topology === 'standalone') {
    base = issuer = await startProcess(shipped.script, port);
    // Written as the demo is created, which may be just after /readyz answers.
    const credentials = join(dataDir, 'demo-credentials.json');
    await waitUntil(
      () =>
        readFile(credentials).then(
          () => true,
          () => false,
        ),
      { message: 'demo credentials written' },
    );
    client = JSON.parse(await readFile(credentials, 'utf8'));
  } else {
    // The production shape: one process per service, as k8s/ deploys them.
    issuer = `http://127.0.0.1:${port + 1}`;
    const extra = { AUTH_ISSUER: issuer };
    await Promise.all([
      startProcess('services/auth/src/main.ts', port + 1, extra),
      startProcess('services/worker/src/main.ts', port + 2, extra),
      startProcess('services/dispatcher/src/main.ts', port + 3, extra),
    ]);
    base = await startProcess('services/gateway/src/main.ts', port, extra);
    const created = await createAccounts(db).createClient({
      name: 'bench',
      grantTypes: ['client_credentials'],
      scopes: 'read write',
    });
    client = { clientId: created.client.clientId, clientSecret: created.clientSecret! };
  }
  // The standalone writes the demo credentials before it stores the client: retry until it has.
  let token = '';
  await waitUntil(
    async () => {
      token = await clientCredentialsToken(issuer, client).catch(() => '');
      return token !== '';
    },
    { message: 'a token for the bench client' },
  );

  let next = 0;
  const request: autocannon.Request = {
    method: 'POST',
    path: '/api/v1/property/skiptrace',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length]! }),
  };
  const run = (opts: Record<string, unknown>) =>
    autocannon({
      url: base,
      connections,
      duration: seconds,
      requests: [request],
      ...opts,
    }) as Promise<autocannon.Result>;
  const summary = (r: autocannon.Result): LoadResult => ({
    reqPerSec: Math.round(r.requests.average),
    total: r.requests.total,
    p50ms: r.latency.p50,
    p99ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  });
  // Closed loop at `connections`: the capacity. wrk when chosen, else autocannon.
  const closedLoop = async (duration: number): Promise<LoadResult> =>
    loadgen === 'wrk'
      ? runWrk({ url: base, path: request.path!, token, bodies, connections, seconds: duration })
      : summary(await run({ duration }));

  await closedLoop(5); // warm-up, discarded
  const dbName = new URL(testDb.url).pathname.slice(1);
  const groups: PidGroups = {
    node: () => children.map((child) => child.pid!),
    // This process and the wrk runs it waited for: the load generator shares the cores too.
    loadgen: () => [process.pid],
    rabbitmq: () => pidsOf('beam.smp'),
    redis: () => pidsOf('redis-server'),
    postgres: () => databaseBackends(db, dbName),
  };
  const transactions = async () =>
    Number(
      (
        await db.query<{ n: string }>(
          'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1',
          [dbName],
        )
      ).rows[0]?.n ?? 0,
    );
  const reference = () =>
    loadgen === 'wrk' ? bareExpressCapacity({ port: port + 10, bodies, connections, seconds }) : undefined;
  const referenceBefore = await reference();
  const cpuBefore = await cpuSnapshot(groups);
  const xactBefore = await transactions();
  const capacity = await closedLoop(seconds);
  const cpuAfter = await cpuSnapshot(groups);
  const referenceAfter = await reference();
  const referenceMean =
    referenceBefore && referenceAfter ? (referenceBefore.reqPerSec + referenceAfter.reqPerSec) / 2 : undefined;
  // The statistics collector publishes counters with a delay of up to ~0.5 s.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const xactAfter = await transactions();
  // Open loop at 70 % of capacity (autocannon's fixed rate; wrk has none): the latency SLO.
  const target = Math.floor(capacity.reqPerSec * 0.7);
  const fixed = await run({ overallRate: target });
  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        topology,
        contacts: world.people,
        ...(world.reused
          ? { reusedWorld: testDb.name }
          : { importRowsPerSec: Math.round(world.people / importSeconds) }),
        connections,
        seconds,
        loadgen,
        owners: values.owners,
        capacity,
        // A bare Express 5 JSON POST server, same generator and bodies, just before and after.
        bareExpress: referenceMean
          ? { before: referenceBefore!.reqPerSec, after: referenceAfter!.reqPerSec }
          : 'needs --loadgen wrk',
        ratioToBareExpress: referenceMean ? Math.round((capacity.reqPerSec / referenceMean) * 1000) / 1000 : undefined,
        // CPU ms each request cost in each process group during the capacity run.
        cpuMsPerRequest: cpuPerRequest(cpuBefore, cpuAfter, capacity.total),
        // Database transactions (each autocommit statement is one) per request.
        pgTransactionsPerRequest: Math.round(((xactAfter - xactBefore) / capacity.total) * 100) / 100,
        at70pct: { rate: target, ...summary(fixed) },
      },
      null,
      2,
    ),
  );
  await db.close();
} finally {
  await Promise.all(children.map((child) => stopChild(child)));
  await vhost.drop();
  await testDb.drop();
  await deleteByPrefix(testUrls().redisUrl, `bench-sync-${process.pid}:`);
  if (testDb.dataDir === undefined) await rm(dataDir, { recursive: true, force: true });
}
