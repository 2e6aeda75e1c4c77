/**
 * docker-compose.yml end to end, with faults across containers. Run by `./run compose:e2e`
 * (scripts/compose.sh e2e: engine, docker-compose, images, the project image built, then this):
 *
 *   1. up: the whole platform as a project of its own (docker-compose.yml + docker/compose-e2e.yml),
 *      every container healthy; 100,000 demo contacts imported into its PostgreSQL (as the
 *      batch bench does: generateContacts, importContacts).
 *   2. OAuth: an API client registered with the admin token, a client_credentials token; a
 *      webhook endpoint at the example receiver (http://webhook-receiver:9000/) with the
 *      shared secret; a synchronous trace of a stored contact.
 *   3. A 100,000-row batch with two workers (rows/s).
 *   4. The same with one worker killed (docker kill) mid-batch, started again 10 s later.
 *   5. The dispatcher disconnected from the network for 30 s while synchronous traces go on.
 *   6. The broker container restarted mid-batch, synchronous traces going on.
 *   7. Workers scaled to four, a 100,000-row batch (rows/s).
 *   8. Checks: every batch row traced once (one result per row, counters agree, none failed);
 *      every webhook message delivered and verified at the receiver, duplicates only under the
 *      same webhook-id, no event under two ids, none rejected; then everything torn down.
 * Prints the figures as JSON; exits 1 when a check fails. Talks only to 127.0.0.1 (published
 * ports) and the Docker engine; the services talk only to each other on the compose network.
 *
 *   node test/compose/compose-e2e.ts [--rows 100000] [--contacts 100000] [--keep]
 * Environment (set by scripts/compose.sh): COMPOSE_CMD, COMPOSE_PROJECT_NAME, the image variables.
 */
import { execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { importContacts } from '@skiptrace/contacts';
import { demoQueryFor, generateContacts, type ContactRow } from '@skiptrace/demo';
import { createPostgresDatabase, type Database } from '@skiptrace/storage';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    contacts: { type: 'string', default: '100000' },
    keep: { type: 'boolean', default: false },
  },
});
const ROWS = Number(values.rows);
const CONTACTS = Number(values.contacts);
const SEED = 99;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const project = process.env.COMPOSE_PROJECT_NAME ?? 'skiptrace-e2e';
const composeCmd = (process.env.COMPOSE_CMD ?? 'docker-compose').split(' ');
const run = promisify(execFile);
const started = performance.now();
const secs = (ms: number) => Math.round(ms / 100) / 10;
const since = (t: number) => secs(performance.now() - t);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (msg: string) => console.error(`[compose-e2e ${since(started).toFixed(1)} s] ${msg}`);

// ---------------------------------------------------------------------------------------------
// Docker and compose

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

const ports = {
  GATEWAY_PORT: await freePort(),
  AUTH_PORT: await freePort(),
  WEBHOOK_RECEIVER_PORT: await freePort(),
  RABBITMQ_MANAGEMENT_PORT: await freePort(),
  E2E_POSTGRES_PORT: await freePort(),
};
const secretsDir = await mkdtemp(join(tmpdir(), 'compose-e2e-secrets-'));
const env = {
  ...process.env,
  ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  COMPOSE_PROJECT_NAME: project,
  COMPOSE_SECRETS_DIR: secretsDir,
  LOG_LEVEL: 'warn',
};

async function docker(args: string[], options: { quiet?: boolean } = {}): Promise<string> {
  try {
    const { stdout } = await run('docker', args, { env, maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    if (options.quiet) return '';
    throw err;
  }
}

/** docker-compose (or `docker compose`) with both files, inheriting stderr for its progress lines. */
function compose(args: string[]): Promise<void> {
  const [cmd, ...pre] = composeCmd;
  const full = [...pre, '-f', join(root, 'docker-compose.yml'), '-f', join(root, 'docker/compose-e2e.yml'), ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd!, full, { env, cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${composeCmd.join(' ')} ${args.join(' ')}: exit ${code}\n${err}`)),
    );
  });
}

/** Container ids of a service of this project (running or not). */
async function containers(service: string, all = false): Promise<string[]> {
  const out = await docker([
    'ps',
    ...(all ? ['-a'] : []),
    '-q',
    '--filter',
    `label=com.docker.compose.project=${project}`,
    '--filter',
    `label=com.docker.compose.service=${service}`,
  ]);
  return out.split('\n').filter(Boolean).sort();
}

async function health(id: string): Promise<string> {
  const out = await docker(
    ['inspect', '-f', '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}', id],
    { quiet: true },
  );
  const [state, status] = out.trim().split(' ');
  return state === 'running' ? (status ?? 'none') : (state ?? 'gone');
}

/** Waits until every container of the project is running and healthy; the seconds it took. */
async function allHealthy(limitMs = 300_000, expect?: Record<string, number>): Promise<number> {
  const t = performance.now();
  for (;;) {
    const ids = (await docker(['ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`]))
      .split('\n')
      .filter(Boolean);
    const states = await Promise.all(ids.map(health));
    let counted = true;
    for (const [service, n] of Object.entries(expect ?? {})) {
      if ((await containers(service)).length !== n) counted = false;
    }
    if (counted && ids.length > 0 && states.every((s) => s === 'healthy')) return since(t);
    if (performance.now() - t > limitMs) {
      const names = await docker(['ps', '-a', '--filter', `label=com.docker.compose.project=${project}`]);
      throw new Error(`not all healthy after ${limitMs / 1000} s:\n${names}`);
    }
    await sleep(250);
  }
}

async function untilHealthy(id: string, limitMs = 120_000): Promise<number> {
  const t = performance.now();
  while ((await health(id)) !== 'healthy') {
    if (performance.now() - t > limitMs) throw new Error(`container ${id} not healthy after ${limitMs / 1000} s`);
    await sleep(200);
  }
  return since(t);
}

// ---------------------------------------------------------------------------------------------
// HTTP (loopback only)

const API = () => `http://127.0.0.1:${ports.GATEWAY_PORT}/api/v1`;
const AUTH = () => `http://127.0.0.1:${ports.AUTH_PORT}`;

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`${res.status} ${res.url}: ${text.slice(0, 300)}`);
  }
}

interface Client {
  accountId: string;
  headers: Record<string, string>;
}

/** A client of an account of its own (RFC 7591 registration with the admin token), its token, its endpoint. */
async function newClient(name: string, adminToken: string, webhookSecret: string): Promise<Client> {
  const reg = await fetch(`${AUTH()}/oauth/register`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope: 'read write admin',
      token_endpoint_auth_method: 'client_secret_post',
    }),
  });
  const client = await json<{ client_id: string; client_secret: string; account_id: string }>(reg);
  if (reg.status !== 201) throw new Error(`registration answered ${reg.status}: ${JSON.stringify(client)}`);
  const tok = await fetch(`${AUTH()}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope: 'read write admin',
    }),
  });
  const token = await json<{ access_token?: string; token_type?: string }>(tok);
  if (!token.access_token) throw new Error(`token endpoint answered ${tok.status}: ${JSON.stringify(token)}`);
  const headers = { authorization: `Bearer ${token.access_token}` };
  const ep = await fetch(`${API()}/webhooks/endpoints`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://webhook-receiver:9000/', secret: webhookSecret, description: name }),
  });
  if (ep.status !== 201) throw new Error(`endpoint create answered ${ep.status}: ${await ep.text()}`);
  return { accountId: client.account_id, headers };
}

interface TraceAnswer {
  status: number;
  id?: number;
  traceStatus?: string;
  ms: number;
}

async function syncTrace(client: Client, body: string): Promise<TraceAnswer> {
  const t = performance.now();
  try {
    const res = await fetch(`${API()}/property/skiptrace`, {
      method: 'POST',
      headers: { ...client.headers, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(60_000),
    });
    const out = await json<{ id?: number; status?: string }>(res).catch(() => ({}) as { id?: number; status?: string });
    return { status: res.status, id: out.id, traceStatus: out.status, ms: performance.now() - t };
  } catch {
    return { status: 0, ms: performance.now() - t };
  }
}

/** Open-loop synchronous traces at `rate`/s until stopped. */
function startProbes(client: Client, bodies: string[], rate: number) {
  const answers: (TraceAnswer & { at: number })[] = [];
  const inFlight = new Set<Promise<void>>();
  let next = 0;
  const timer = setInterval(() => {
    const at = performance.now();
    const p = syncTrace(client, bodies[next++ % bodies.length]!).then((a) => void answers.push({ ...a, at }));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }, 1000 / rate);
  return {
    answers,
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return answers;
    },
  };
}

const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** Batch row i (1-based), as test/bench/batch.bench.ts writes them: 1 in 10 unknown, 1 in 10 address only. */
function batchRow(row: ContactRow, i: number, variant: number): string[] {
  const q = demoQueryFor(row, variant * 1_000_003 + i);
  if (i % 10 === 0) return [`${i} Nowhere Benchmark Rd`, q.city, q.state, q.zip_code, q.first_name, q.last_name];
  if (i % 10 === 1) return [q.street_address, q.city, q.state, q.zip_code, '', ''];
  return [q.street_address, q.city, q.state, q.zip_code, q.first_name, q.last_name];
}

function batchFile(variant: number): Buffer {
  const lines = ['street_address,city,state,zip_code,first_name,last_name'];
  let i = 0;
  while (i < ROWS) {
    for (const row of generateContacts({ rows: Math.min(CONTACTS, ROWS), seed: SEED })) {
      if (++i > ROWS) break;
      lines.push(batchRow(row, i, variant).map(csvField).join(','));
    }
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

interface Summary {
  id: string;
  status: string;
  total: number;
  processed: number;
  matched: number;
  no_match: number;
  failed: number;
  rejected: number;
  reused: number;
}

interface BatchRun {
  id: string;
  summary: Summary;
  uploadS: number;
  traceS: number;
  totalS: number;
  rowsPerSecond: number;
  /** [ms since upload start, processed] every ~250 ms. */
  progress: [number, number][];
}

/**
 * Uploads a batch and follows it to the end; `during(processed, elapsedMs)` is called on every
 * progress reading (for the faults), awaited before the next reading.
 */
async function runBatch(
  client: Client,
  variant: number,
  during?: (processed: number, t0: number) => Promise<void>,
): Promise<BatchRun> {
  const file = batchFile(variant);
  const t0 = performance.now();
  const up = await fetch(`${API()}/property/skiptrace/batches`, {
    method: 'POST',
    headers: { ...client.headers, 'content-type': 'text/csv' },
    body: file,
  });
  const accepted = await json<{ id: string }>(up);
  if (up.status !== 202) throw new Error(`batch upload answered ${up.status}: ${JSON.stringify(accepted)}`);
  const t1 = performance.now();
  const progress: [number, number][] = [];
  let summary: Summary;
  for (;;) {
    const res = await fetch(`${API()}/property/skiptrace/batches/${accepted.id}`, { headers: client.headers }).catch(
      () => undefined,
    );
    if (res?.ok) {
      summary = await json<Summary>(res);
      progress.push([Math.round(performance.now() - t0), summary.processed]);
      if (summary.status === 'completed' || summary.status === 'failed' || summary.status === 'cancelled') break;
      await during?.(summary.processed, t0);
    }
    await sleep(250);
  }
  const t2 = performance.now();
  return {
    id: accepted.id,
    summary,
    uploadS: secs(t1 - t0),
    traceS: secs(t2 - t1),
    totalS: secs(t2 - t0),
    rowsPerSecond: Math.round(ROWS / ((t2 - t0) / 1000)),
    progress,
  };
}

/** Longest time (s) without progress between two readings after `fromMs` (ms since upload start). */
function longestStall(progress: [number, number][], fromMs: number): number {
  let worst = 0;
  let lastChange = fromMs;
  let lastValue = progress.filter(([t]) => t <= fromMs).at(-1)?.[1] ?? 0;
  for (const [t, processed] of progress) {
    if (t <= fromMs) continue;
    if (processed !== lastValue) {
      worst = Math.max(worst, t - lastChange);
      lastChange = t;
      lastValue = processed;
    }
  }
  return secs(worst);
}

/** Rows/s between two times (ms since upload start) from the progress readings. */
function rateBetween(readings: [number, number][], fromMs: number, toMs: number): number {
  // The upload's start: nothing processed yet.
  const progress: [number, number][] = [[0, 0], ...readings];
  const a = progress.filter(([t]) => t >= fromMs)[0];
  const b = progress.filter(([t]) => t <= toMs).at(-1);
  if (!a || !b || b[0] <= a[0]) return 0;
  return Math.round(((b[1] - a[1]) * 1000) / (b[0] - a[0]));
}

// ---------------------------------------------------------------------------------------------
// The run

const problems: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) problems.push(what);
  log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};
const figures: Record<string, unknown> = {
  date: new Date().toISOString(),
  commit: (await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: root })).stdout.trim(),
  loadAtStart: loadavg().map((x) => Math.round(x * 100) / 100),
  images: {
    node: process.env.NODE_IMAGE,
    postgres: process.env.POSTGRES_IMAGE,
    redis: process.env.REDIS_IMAGE,
    rabbitmq: process.env.RABBITMQ_IMAGE,
  },
  rows: ROWS,
  contacts: CONTACTS,
};
let db: Database | undefined;
let tornDown = false;
async function teardown() {
  if (tornDown) return;
  tornDown = true;
  await db?.close().catch(() => undefined);
  if (values.keep) {
    log(`--keep: project ${project} left running (./run compose -- -p ${project} down -v to remove)`);
    return;
  }
  const t = performance.now();
  await compose(['down', '-v', '--remove-orphans', '-t', '20']).catch((err: Error) => log(`down: ${err.message}`));
  figures.teardownS = since(t);
  await rm(secretsDir, { recursive: true, force: true });
  log(`torn down in ${figures.teardownS} s`);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: tearing down`);
    void teardown().finally(() => process.exit(130));
  });
}

try {
  // Secrets of this run only.
  const adminToken = (await run('node', ['-e', "console.log(crypto.randomBytes(32).toString('base64url'))"])).stdout;
  const cookieKeys = (await run('node', ['-e', "console.log(crypto.randomBytes(32).toString('base64url'))"])).stdout;
  const webhookSecret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
  await writeFile(join(secretsDir, 'admin_token'), adminToken, { mode: 0o644 });
  await writeFile(join(secretsDir, 'cookie_keys'), cookieKeys, { mode: 0o644 });
  await writeFile(join(secretsDir, 'webhook_secret'), `${webhookSecret}\n`, { mode: 0o644 });
  await chmod(secretsDir, 0o755);

  // 1. Up.
  log(`up: project ${project}, gateway on 127.0.0.1:${ports.GATEWAY_PORT}`);
  let t = performance.now();
  await compose(['up', '-d', '--no-build']);
  const upS = since(t);
  await allHealthy(300_000, { worker: 2 });
  figures.up = { composeUpS: upS, allHealthyS: since(t) };
  log(`every container healthy ${since(t)} s after up`);

  db = createPostgresDatabase({
    url: `postgres://skiptrace:${process.env.POSTGRES_PASSWORD ?? 'skiptrace'}@127.0.0.1:${ports.E2E_POSTGRES_PORT}/skiptrace`,
    max: 4,
  });
  t = performance.now();
  const bodies: string[] = [];
  const stride = Math.max(1, Math.floor(CONTACTS / 2000));
  async function* ndjson() {
    let i = 0;
    for (const row of generateContacts({ rows: CONTACTS, seed: SEED })) {
      if (i++ % stride === 0) bodies.push(JSON.stringify(demoQueryFor(row, 7 + i)));
      yield `${JSON.stringify(row)}\n`;
    }
  }
  const counts = await importContacts(db, ndjson(), { format: 'ndjson', source: 'compose-e2e' });
  figures.import = {
    contacts: counts.imported,
    seconds: since(t),
    rowsPerSecond: Math.round(counts.imported / ((performance.now() - t) / 1000)),
  };
  log(`imported ${counts.imported} contacts in ${since(t)} s`);
  check(counts.imported === CONTACTS, `all ${CONTACTS} contacts imported (${counts.imported})`);

  // 2. OAuth, endpoint, a synchronous trace.
  t = performance.now();
  const syncClient = await newClient('compose-e2e-sync', adminToken.trim(), webhookSecret);
  figures.oauthClientTokenEndpointS = since(t);
  const first = await syncTrace(syncClient, bodies[1]!);
  figures.firstSyncTrace = { status: first.status, traceStatus: first.traceStatus, ms: Math.round(first.ms) };
  check(
    first.status === 200 && first.traceStatus === 'completed',
    `sync trace of a stored contact: ${JSON.stringify(first)}`,
  );
  const warm: TraceAnswer[] = [];
  for (let i = 0; i < 20; i++) warm.push(await syncTrace(syncClient, bodies[(i * 37) % bodies.length]!));
  const warmMs = warm.map((a) => a.ms).sort((a, b) => a - b);
  figures.syncTraceIdleMs = { p50: Math.round(warmMs[10]!), max: Math.round(warmMs.at(-1)!) };
  const syncAnswers: TraceAnswer[] = [first, ...warm];

  const batches: Record<string, BatchRun> = {};

  // 3. Two workers.
  log('batch 1: two workers');
  const c1 = await newClient('compose-e2e-batch-1', adminToken.trim(), webhookSecret);
  batches.twoWorkers = await runBatch(c1, 1);
  log(`batch 1: ${batches.twoWorkers.rowsPerSecond} rows/s (${batches.twoWorkers.totalS} s)`);

  // 4. A worker killed mid-batch, started again 10 s later.
  log('batch 2: a worker killed mid-batch');
  const c2 = await newClient('compose-e2e-batch-2', adminToken.trim(), webhookSecret);
  const [victim] = await containers('worker');
  const kill: Record<string, number | string | boolean> = {};
  let killedAtMs = 0;
  batches.workerKilled = await runBatch(c2, 2, async (processed, t0) => {
    if (killedAtMs === 0 && processed >= ROWS * 0.2) {
      await docker(['kill', victim!]);
      killedAtMs = performance.now() - t0;
      kill.killedAtRow = processed;
      kill.killedAtS = secs(killedAtMs);
      log(`killed worker ${victim!.slice(0, 12)} at row ${processed}`);
    } else if (killedAtMs > 0 && kill.restartedAtS === undefined && performance.now() - t0 - killedAtMs >= 10_000) {
      const state = (await docker(['inspect', '-f', '{{.State.Status}} {{.RestartCount}}', victim!])).trim();
      kill.dockerRestartedItItself = !state.startsWith('exited');
      const ts = performance.now();
      if (state.startsWith('exited')) await docker(['start', victim!]);
      kill.restartedAtS = secs(ts - t0);
      // Followed in the background: the batch goes on meanwhile.
      void untilHealthy(victim!).then((s) => (kill.restartToHealthyS = s));
    }
  });
  {
    const p = batches.workerKilled.progress;
    kill.rowsPerSecondBeforeKill = rateBetween(p, 0, killedAtMs);
    kill.rowsPerSecondOneWorker = rateBetween(p, killedAtMs, killedAtMs + 10_000);
    kill.longestStallAfterKillS = longestStall(p, killedAtMs);
    if (kill.restartedAtS === undefined) {
      // The batch ended within 10 s of the kill: the worker is started again now.
      const state = (await docker(['inspect', '-f', '{{.State.Status}}', victim!])).trim();
      kill.dockerRestartedItItself = state !== 'exited';
      kill.restartedAfterTheBatch = true;
      if (state === 'exited') await docker(['start', victim!]);
    }
    if (kill.restartToHealthyS === undefined) kill.restartToHealthyS = await untilHealthy(victim!);
  }
  figures.workerKill = kill;
  log(`batch 2: ${batches.workerKilled.rowsPerSecond} rows/s; ${JSON.stringify(kill)}`);

  // 5. The dispatcher off the network for 30 s; synchronous traces meanwhile.
  log('dispatcher: disconnected for 30 s');
  const network = `${project}_default`;
  const [dispatcher] = await containers('dispatcher');
  const disconnect: Record<string, number | string> = {};
  await docker(['network', 'disconnect', network, dispatcher!]);
  const tDisc = performance.now();
  const duringDisconnect = startProbes(syncClient, bodies, 5);
  await sleep(30_000);
  const offline = await duringDisconnect.stop();
  disconnect.dispatcherHealthWhileOff = await health(dispatcher!);
  await docker(['network', 'connect', '--alias', 'dispatcher', network, dispatcher!]);
  const tConn = performance.now();
  disconnect.offS = secs(tConn - tDisc);
  disconnect.tracesWhileOff = offline.length;
  disconnect.tracesAnswered200WhileOff = offline.filter((a) => a.status === 200).length;
  syncAnswers.push(...offline);
  const offIds = new Set(offline.filter((a) => a.id !== undefined).map((a) => String(a.id)));
  disconnect.reconnectToHealthyS = await untilHealthy(dispatcher!, 180_000);
  // Every trace made while it was off delivered at the receiver.
  for (;;) {
    const seen = new Set(
      (await receiverLog()).firsts.filter((e) => e.type === 'skiptrace.completed').map((e) => e.key),
    );
    const missing = [...offIds].filter((id) => !seen.has(id)).length;
    if (missing === 0) break;
    if (performance.now() - tConn > 300_000) {
      disconnect.undeliveredAfter300s = missing;
      break;
    }
    await sleep(500);
  }
  disconnect.reconnectToAllWebhooksDeliveredS = since(tConn);
  figures.dispatcherDisconnect = disconnect;
  log(`dispatcher: ${JSON.stringify(disconnect)}`);

  // 6. The broker restarted mid-batch, synchronous traces going on.
  log('batch 3: the broker restarted mid-batch');
  const c3 = await newClient('compose-e2e-batch-3', adminToken.trim(), webhookSecret);
  const [broker] = await containers('rabbitmq');
  const restart: Record<string, number | string | boolean> = {};
  let restartAtMs = 0;
  const brokerProbes = startProbes(syncClient, bodies, 2);
  let tRestart = 0;
  let restarting: Promise<void> | undefined;
  batches.brokerRestarted = await runBatch(c3, 3, async (processed, t0) => {
    if (restartAtMs === 0 && processed >= ROWS * 0.2) {
      restartAtMs = performance.now() - t0;
      tRestart = performance.now();
      restart.restartedAtRow = processed;
      log(`restarting the broker at row ${processed}`);
      restarting = (async () => {
        await docker(['restart', '-t', '10', broker!]);
        restart.dockerRestartS = since(tRestart);
        await untilHealthy(broker!);
        restart.brokerHealthyS = since(tRestart);
        await allHealthy(300_000);
        restart.allContainersHealthyS = since(tRestart);
      })();
    }
  });
  await restarting;
  // Ten more seconds of synchronous traces once everything is healthy again.
  await sleep(10_000);
  const probeAnswers = await brokerProbes.stop();
  syncAnswers.push(...probeAnswers);
  {
    const after = probeAnswers.filter((a) => a.at >= tRestart);
    const failures = after.filter((a) => a.status !== 200);
    const lastFailure = failures.at(-1);
    const recovered = lastFailure ? after.find((a) => a.at > lastFailure.at && a.status === 200) : undefined;
    restart.syncTracesFromRestart = after.length;
    restart.syncNot200 = failures.length;
    restart.syncStatuses = JSON.stringify(
      after.reduce<Record<string, number>>((m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }), {}),
    );
    restart.syncLastStatuses = after
      .slice(-5)
      .map((a) => a.status)
      .join(' ');
    // As clients saw it: from the first request that failed to the first success after the last failure.
    if (failures.length > 0) {
      restart.clientOutageS = recovered ? secs(recovered.at + recovered.ms - failures[0]!.at) : 'not recovered';
    }
    const p = batches.brokerRestarted.progress;
    restart.longestBatchStallS = longestStall(p, restartAtMs);
    const resumed = p.find(([tt, n]) => tt > restartAtMs && n > (p.filter(([x]) => x <= restartAtMs).at(-1)?.[1] ?? 0));
    if (resumed) restart.batchProgressResumedS = secs(resumed[0] - restartAtMs);
  }
  figures.brokerRestart = restart;
  log(`batch 3: ${batches.brokerRestarted.rowsPerSecond} rows/s; ${JSON.stringify(restart)}`);

  // 7. Four workers.
  log('workers: scaling to four');
  t = performance.now();
  await compose(['up', '-d', '--no-build', '--no-recreate', '--scale', 'worker=4']);
  await allHealthy(300_000, { worker: 4 });
  figures.scaleToFourHealthyS = since(t);
  const c4 = await newClient('compose-e2e-batch-4', adminToken.trim(), webhookSecret);
  batches.fourWorkers = await runBatch(c4, 4);
  log(`batch 4: ${batches.fourWorkers.rowsPerSecond} rows/s (${batches.fourWorkers.totalS} s)`);

  // 8. Checks.
  for (const [name, b] of Object.entries(batches)) {
    const s = b.summary;
    const { rows } = await db.query<{ n: string; distinct_rows: string; failed: string; props: string }>(
      `SELECT (SELECT count(*) FROM batch_results WHERE batch_id = $1::bigint) AS n,
              (SELECT count(DISTINCT row_number) FROM batch_results WHERE batch_id = $1::bigint) AS distinct_rows,
              (SELECT count(*) FROM batch_results WHERE batch_id = $1::bigint AND status = 'failed') AS failed,
              (SELECT count(*) FROM properties WHERE batch_id = $1::bigint::text) AS props`,
      [b.id],
    );
    const r = rows[0]!;
    check(
      s.status === 'completed' &&
        s.processed === ROWS &&
        Number(r.n) === ROWS &&
        Number(r.distinct_rows) === ROWS &&
        Number(r.props) === ROWS &&
        s.matched + s.no_match + s.failed === s.processed &&
        s.failed === 0 &&
        Number(r.failed) === 0,
      `${name}: every row traced once (status ${s.status}, processed ${s.processed}, results ${r.n}, ` +
        `distinct rows ${r.distinct_rows}, stored rows ${r.props}, matched ${s.matched}, no_match ${s.no_match}, ` +
        `failed ${s.failed}, reused ${s.reused})`,
    );
  }
  figures.batches = Object.fromEntries(
    Object.entries(batches).map(([name, b]) => [
      name,
      {
        rowsPerSecond: b.rowsPerSecond,
        uploadS: b.uploadS,
        traceS: b.traceS,
        totalS: b.totalS,
        traceRowsPerSecond: Math.round(ROWS / b.traceS),
        matchRate: Math.round((b.summary.matched / b.summary.processed) * 1000) / 10,
        reused: b.summary.reused,
      },
    ]),
  );

  // Webhooks: every message in the store delivered, each verified at the receiver under its id.
  const tw = performance.now();
  let pending = 0;
  for (;;) {
    const { rows } = await db.query<{ status: string; n: string }>(
      'SELECT status, count(*) AS n FROM webhook_messages GROUP BY status',
    );
    pending = rows.filter((r) => r.status !== 'delivered').reduce((n, r) => n + Number(r.n), 0);
    if (pending === 0 || performance.now() - tw > 180_000) break;
    await sleep(1000);
  }
  const { rows: messages } = await db.query<{ id: string; event_type: string; event_id: string; status: string }>(
    'SELECT id, event_type, event_id, status FROM webhook_messages',
  );
  // Per event type: a stored synchronous property (plant.added), a finished one
  // (skiptrace.completed), a finished batch (batch.completed); one endpoint per account.
  const { rows: expectedRows } = await db.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM properties WHERE batch_id IS NULL) AS "plant.added",
            (SELECT count(*) FROM properties WHERE batch_id IS NULL AND status IN ('completed', 'no_match', 'failed'))
              AS "skiptrace.completed",
            (SELECT count(*) FROM batches WHERE status IN ('completed', 'failed')) AS "batch.completed"`,
  );
  const expected = Object.fromEntries(Object.entries(expectedRows[0]!).map(([k, v]) => [k, Number(v)]));
  const byType: Record<string, number> = {};
  for (const m of messages) byType[m.event_type] = (byType[m.event_type] ?? 0) + 1;
  const sameCounts = [...new Set([...Object.keys(expected), ...Object.keys(byType)])].every(
    (k) => (byType[k] ?? 0) === (expected[k] ?? 0),
  );
  const rx = await receiverLog();
  const firstIds = new Map(rx.firsts.map((e) => [e.id, e]));
  const notReceived = messages.filter((m) => !firstIds.has(m.id)).length;
  const unknown = rx.firsts.filter((e) => !messages.some((m) => m.id === e.id)).length;
  const dupWithNewId = rx.duplicates.filter((id) => !firstIds.has(id)).length;
  const keys = new Map<string, Set<string>>();
  for (const e of rx.firsts) {
    const k = `${e.type}:${e.key}`;
    keys.set(k, (keys.get(k) ?? new Set()).add(e.id));
  }
  const eventsUnderTwoIds = [...keys.values()].filter((ids) => ids.size > 1).length;
  const accepted = syncAnswers.filter((a) => a.id !== undefined).length;
  figures.webhooks = {
    messages: messages.length,
    byType,
    expectedByType: expected,
    syncTracesAccepted: accepted,
    syncTracesSent: syncAnswers.length,
    receivedVerified: rx.firsts.length,
    duplicatesSameId: rx.duplicates.length,
    rejectedAtReceiver: rx.rejected,
    lastDeliveryWaitS: since(tw),
  };
  check(pending === 0, `every webhook message delivered (${pending} not)`);
  check(
    sameCounts,
    `one message per event and endpoint: ${JSON.stringify(byType)}, expected ${JSON.stringify(expected)}`,
  );
  check(
    notReceived === 0 && unknown === 0,
    `the receiver verified every message (${notReceived} missing, ${unknown} unknown)`,
  );
  check(
    dupWithNewId === 0 && eventsUnderTwoIds === 0,
    `duplicates only under the same webhook-id (${eventsUnderTwoIds} events under two ids)`,
  );
  check(rx.rejected === 0, `no delivery rejected by the receiver's signature check (${rx.rejected})`);
  check(accepted <= messages.length, `every accepted synchronous trace has its webhook (${accepted} accepted)`);
} catch (err) {
  problems.push(`error: ${(err as Error).stack ?? String(err)}`);
  log(`error: ${(err as Error).message}`);
  const ps = await docker(['ps', '-a', '--filter', `label=com.docker.compose.project=${project}`], { quiet: true });
  console.error(ps);
} finally {
  figures.loadAtEnd = loadavg().map((x) => Math.round(x * 100) / 100);
  figures.totalS = since(started);
  await teardown();
}
figures.problems = problems;
console.log(JSON.stringify(figures, null, 2));
process.exit(problems.length === 0 ? 0 : 1);

// ---------------------------------------------------------------------------------------------

interface Received {
  id: string;
  type: string;
  /** The event's own id: the property (skiptrace.completed) or batch (batch.completed). */
  key: string;
}

/** The example receiver's log: verified deliveries (first per id), duplicates, rejections. */
async function receiverLog(): Promise<{ firsts: Received[]; duplicates: string[]; rejected: number }> {
  const [id] = await containers('webhook-receiver');
  const { stdout, stderr } = await run('docker', ['logs', id!], { env, maxBuffer: 256 * 1024 * 1024 });
  const firsts: Received[] = [];
  const duplicates: string[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const e = JSON.parse(line) as { id: string; type: string; duplicate?: boolean; body?: { id?: unknown } };
    if (e.duplicate) duplicates.push(e.id);
    else firsts.push({ id: e.id, type: e.type, key: String(e.body?.id ?? '') });
  }
  return { firsts, duplicates, rejected: stderr.split('\n').filter((l) => l.startsWith('rejected:')).length };
}
