// OpenTelemetry end to end: with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local OTLP/HTTP
// receiver, one POST /api/v1/property/skiptrace yields one trace with spans from the
// gateway, the worker and the dispatcher (its webhook delivery included), and log lines
// carry the trace id — in the one-process system and with the services as processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAccounts } from '@skiptrace/accounts';
import { createPostgresDatabase } from '@skiptrace/storage';
import {
  clientCredentialsToken,
  createTestDatabaseUrl,
  createTestVhost,
  demoClient,
  deleteByPrefix,
  randomPrefix,
  stopChild,
  testUrls,
  waitUntil,
  type TestDatabase,
  type TestVhost,
} from '@skiptrace/testing';
import { otelEnv, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.ts';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const PROPERTY = { street_address: '12 Main St', city: 'Springfield', state: 'IL', zip_code: '62701' };
const KIND = { server: 2, client: 3, producer: 4, consumer: 5 };

let otlp: OtlpReceiver;
let hooks: Server;
let hooksUrl: string;
const delivered: string[] = [];
const procs: ChildProcess[] = [];
const logs: string[] = [];

function spawnService(script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout!.on('data', (c: Buffer) => logs.push(c.toString()));
  procs.push(child);
  return child;
}
const ready = (url: string, what: string) =>
  waitUntil(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.ok === true, {
    timeoutMs: 90_000,
    message: `${what} ready`,
  });
async function stopAll() {
  for (const child of procs.splice(0)) await stopChild(child);
}

/** Subscribes the receiver, sends one skip trace, waits for its webhook; returns the request's trace. */
async function traceOneRequest(api: string, token: string): Promise<{ traceId: string; spans: ReceivedSpan[] }> {
  const call = (path: string, body: unknown) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const sub = await call('/webhooks/endpoints', { url: hooksUrl, events: ['skiptrace.completed'], secret: SECRET });
  expect(sub.status).toBe(201);
  const res = await call('/property/skiptrace', PROPERTY);
  expect(res.status).toBe(200);
  const { id } = (await res.json()) as { id: number };
  await waitUntil(() => delivered.some((body) => JSON.parse(body).id === id), {
    timeoutMs: 30_000,
    message: 'webhook delivered',
  });
  let traceId = '';
  await waitUntil(
    () => {
      const server = otlp.spans.find((s) => s.kind === KIND.server && s.name === 'POST /api/v1/property/skiptrace');
      traceId = server?.traceId ?? '';
      return (
        Boolean(traceId) &&
        otlp.spans.some((s) => s.traceId === traceId && s.name === 'deliver webhook skiptrace.completed')
      );
    },
    { timeoutMs: 30_000, message: 'spans of the request exported' },
  );
  return { traceId, spans: otlp.spans.filter((s) => s.traceId === traceId) };
}

function expectOneTraceThroughEveryHop(spans: ReceivedSpan[]) {
  const byName = (name: string) => spans.filter((s) => s.name === name);
  expect(byName('POST /api/v1/property/skiptrace')[0]?.kind).toBe(KIND.server);
  expect(byName('send job.skiptrace')[0]?.kind).toBe(KIND.producer);
  expect(byName('process skiptrace.jobs')[0]?.kind).toBe(KIND.consumer);
  expect(byName('send event.skiptrace.completed')[0]?.kind).toBe(KIND.producer);
  expect(byName('process webhooks.events')[0]?.kind).toBe(KIND.consumer);
  const delivery = byName('deliver webhook skiptrace.completed')[0];
  expect(delivery?.kind).toBe(KIND.client);
  expect(delivery?.attributes['http.response.status_code']).toBe(200);
  // Database statements of the worker, inside its consumer span's trace.
  expect(spans.some((s) => s.kind === KIND.client && s.attributes['db.system.name'] === 'postgresql')).toBe(true);
  // Parent links: every span but the root has its parent in the same trace.
  const ids = new Set(spans.map((s) => s.spanId));
  const roots = spans.filter((s) => !s.parentSpanId || !ids.has(s.parentSpanId));
  expect(roots.map((s) => s.name)).toEqual(['POST /api/v1/property/skiptrace']);
}

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  hooks = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      delivered.push(raw);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hooksUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await stopAll();
  hooks?.closeAllConnections();
  hooks?.close();
  await otlp?.close();
});

describe('tracing in the one-process system', () => {
  const PORT = 18810;
  let dataDir: string;
  afterAll(async () => {
    await stopAll();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('one skip trace is one trace through gateway, worker and dispatcher, and logs carry its id', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tracing-standalone-'));
    const base = `http://127.0.0.1:${PORT}`;
    spawnService('services/standalone/src/main.ts', {
      PORT: String(PORT),
      SKIPTRACE_DATA_DIR: dataDir,
      SKIPTRACE_DEMO_ROWS: '200',
      LOG_LEVEL: 'debug',
      DATABASE_URL: '',
      AMQP_URL: '',
      REDIS_URL: '',
      ...otelEnv(otlp),
    });
    await ready(base, 'standalone');
    const token = await clientCredentialsToken(base, await demoClient(dataDir), 'read write admin');
    const { traceId, spans } = await traceOneRequest(`${base}/api/v1`, token);
    expectOneTraceThroughEveryHop(spans);
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['skiptrace']));
    await waitUntil(() => logs.join('').includes(`"trace_id":"${traceId}"`), {
      timeoutMs: 10_000,
      message: 'a log line with the trace id',
    });
  }, 180_000);
});

describe('tracing with the services as separate processes', () => {
  const PORTS = { gateway: 18820, auth: 18821, worker: 18822, dispatcher: 18823 };
  let testDb: TestDatabase;
  let vhost: TestVhost;
  let prefix: string;
  afterAll(async () => {
    await stopAll();
    await vhost?.drop();
    await testDb?.drop();
    if (prefix) await deleteByPrefix(testUrls().redisUrl, prefix);
  });

  it('one skip trace is one trace across the gateway, worker and dispatcher processes', async () => {
    otlp.spans.splice(0);
    delivered.splice(0);
    testDb = await createTestDatabaseUrl('e2e_tracing');
    vhost = await createTestVhost('tracing');
    prefix = `${randomPrefix('tracing')}:`;
    const db = createPostgresDatabase({ url: testDb.url });
    await db.migrate();
    const { client, clientSecret } = await createAccounts(db).createClient({
      name: 'tracing',
      grantTypes: ['client_credentials'],
      scopes: 'read write admin',
    });
    await db.close();
    const issuer = `http://127.0.0.1:${PORTS.auth}`;
    const common = {
      DATABASE_URL: testDb.url,
      AMQP_URL: vhost.url,
      REDIS_URL: testUrls().redisUrl,
      REDIS_PREFIX: prefix,
      AUTH_ISSUER: issuer,
      SKIPTRACE_WEBHOOK_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'debug',
      ...otelEnv(otlp),
    };
    for (const name of ['auth', 'worker', 'dispatcher', 'gateway'] as const) {
      spawnService(`services/${name}/src/main.ts`, { ...common, PORT: String(PORTS[name]), OTEL_SERVICE_NAME: name });
    }
    await Promise.all(Object.entries(PORTS).map(([name, port]) => ready(`http://127.0.0.1:${port}`, name)));
    const token = await clientCredentialsToken(
      issuer,
      { clientId: client.clientId, clientSecret: clientSecret! },
      'read write admin',
    );
    const { traceId, spans } = await traceOneRequest(`http://127.0.0.1:${PORTS.gateway}/api/v1`, token);
    expectOneTraceThroughEveryHop(spans);
    const serviceOf = (name: string) => spans.find((s) => s.name === name)?.service;
    expect(serviceOf('POST /api/v1/property/skiptrace')).toBe('gateway');
    expect(serviceOf('process skiptrace.jobs')).toBe('worker');
    expect(serviceOf('process webhooks.events')).toBe('dispatcher');
    expect(serviceOf('deliver webhook skiptrace.completed')).toBe('dispatcher');
    await waitUntil(() => logs.join('').includes(`"trace_id":"${traceId}"`), {
      timeoutMs: 10_000,
      message: 'a log line with the trace id',
    });

    // Concurrent requests travel packed (several jobs in one AMQP message); each keeps its own trace.
    const api = `http://127.0.0.1:${PORTS.gateway}/api/v1`;
    const before = new Set(otlp.spans.map((s) => s.traceId));
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetch(`${api}/property/skiptrace`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...PROPERTY, street_address: `${100 + i} Oak Ave` }),
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    await waitUntil(
      () => {
        const fresh = otlp.spans.filter((s) => !before.has(s.traceId) && s.name === 'POST /api/v1/property/skiptrace');
        const withWorker = fresh.filter((s) =>
          otlp.spans.some((w) => w.traceId === s.traceId && w.name === 'process skiptrace.jobs'),
        );
        return fresh.length === 8 && withWorker.length === 8;
      },
      { timeoutMs: 30_000, message: 'each concurrent request traced into the worker' },
    );
  }, 240_000);
});
