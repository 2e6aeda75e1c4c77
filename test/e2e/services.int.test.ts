import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAccounts } from '@skiptrace/accounts';
import { importContacts } from '@skiptrace/contacts';
import { demoQueryFor, generateContacts } from '@skiptrace/demo';
import { createPostgresDatabase } from '@skiptrace/storage';
import {
  createTestDatabaseUrl,
  createTestVhost,
  randomPrefix,
  deleteByPrefix,
  stopChild,
  testUrls,
  waitUntil,
  type TestDatabase,
  type TestVhost,
} from '@skiptrace/testing';
import { verifyWebhook } from '@skiptrace/webhook-verify';

// The production shape: auth, gateway, two workers and a dispatcher as separate
// processes over PostgreSQL, RabbitMQ and Redis; a subscriber receives signed webhooks.
const PORTS = { auth: 18181, gateway: 18180, worker1: 18182, worker2: 18184, dispatcher: 18183 };
const issuer = `http://127.0.0.1:${PORTS.auth}`;
const api = `http://127.0.0.1:${PORTS.gateway}/api/v1`;
const contacts = [...generateContacts({ rows: 300, seed: 5 })];

let testDb: TestDatabase;
let vhost: TestVhost;
let prefix: string;
let receiver: Server;
let receiverUrl: string;
const received: { type: string; body: { id?: number; status?: string } }[] = [];
let webhookSecret = '';
const procs = new Map<string, ChildProcess>();
let token: string;

function start(name: keyof typeof PORTS, script: string, extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      PORT: String(PORTS[name]),
      DATABASE_URL: testDb.url,
      AMQP_URL: vhost.url,
      REDIS_URL: testUrls().redisUrl,
      REDIS_PREFIX: prefix,
      AUTH_ISSUER: issuer,
      LOG_LEVEL: 'warn',
      ...extra,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  procs.set(name, child);
  return waitUntil(async () => (await fetch(`http://127.0.0.1:${PORTS[name]}/readyz`)).ok, {
    timeoutMs: 60_000,
    message: `${name} ready`,
  });
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

beforeAll(async () => {
  testDb = await createTestDatabaseUrl('e2e_services');
  vhost = await createTestVhost('e2e');
  prefix = `${randomPrefix('e2e')}:`;
  const db = createPostgresDatabase({ url: testDb.url });
  await db.migrate();
  async function* ndjson() {
    for (const row of contacts) yield `${JSON.stringify(row)}\n`;
  }
  await importContacts(db, ndjson(), { format: 'ndjson', source: 'e2e' });
  const { clientSecret, client } = await createAccounts(db).createClient({
    name: 'e2e',
    grantTypes: ['client_credentials'],
    // admin: the test subscribes its receiver (webhook endpoints are administration).
    scopes: 'read write admin',
  });
  await db.close();

  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      try {
        const body = verifyWebhook(webhookSecret, raw, req.headers) as { id?: number; status?: string };
        received.push({ type: String(req.headers['webhook-event-type']), body });
        res.writeHead(200).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/plant/webhook`;

  // Migrations run again in every process at once: the advisory lock keeps that safe.
  await Promise.all([
    start('auth', 'services/auth/src/main.ts'),
    start('worker1', 'services/worker/src/main.ts'),
    start('worker2', 'services/worker/src/main.ts'),
    start('dispatcher', 'services/dispatcher/src/main.ts', { SKIPTRACE_WEBHOOK_ALLOW_PRIVATE: 'true' }),
  ]);
  await start('gateway', 'services/gateway/src/main.ts', { SKIPTRACE_WEBHOOK_ALLOW_PRIVATE: 'true' });

  const res = await fetch(`${issuer}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: clientSecret!,
      scope: 'read write admin',
    }),
  });
  token = ((await res.json()) as { access_token: string }).access_token;
}, 180_000);

afterAll(async () => {
  await Promise.all([...procs.values()].map((child) => stopChild(child, 'SIGKILL')));
  receiver?.closeAllConnections();
  receiver?.close();
  await vhost?.drop();
  await testDb?.drop();
  await deleteByPrefix(testUrls().redisUrl, prefix);
});

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${api}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });

describe('services as separate processes', () => {
  it('traces through gateway → RabbitMQ → worker and delivers signed webhooks', async () => {
    const sub = await call('/webhooks/endpoints', {
      method: 'POST',
      body: JSON.stringify({ url: receiverUrl, events: ['plant.added', 'skiptrace.completed'] }),
    });
    expect(sub.status).toBe(201);
    webhookSecret = ((await sub.json()) as { secret: string }).secret;

    const res = await call('/property/skiptrace', { method: 'POST', body: JSON.stringify(demoQueryFor(contacts[0]!)) });
    const body = (await res.json()) as { id: number; status: string };
    expect(res.status).toBe(200);
    expect(body.status).toBe('completed');

    await waitUntil(() => received.filter((r) => r.body.id === body.id).length >= 2, {
      timeoutMs: 20_000,
      message: 'both webhooks delivered',
    });
    const types = received.filter((r) => r.body.id === body.id).map((r) => r.type);
    expect(types).toEqual(expect.arrayContaining(['plant.added', 'skiptrace.completed']));
    expect(received.find((r) => r.type === 'skiptrace.completed')!.body.status).toBe('completed');
  });

  it('keeps serving when one worker is killed', async () => {
    procs.get('worker1')!.kill('SIGKILL');
    await exited(procs.get('worker1')!);
    for (let i = 1; i <= 5; i++) {
      const res = await call('/property/skiptrace', {
        method: 'POST',
        body: JSON.stringify(demoQueryFor(contacts[i]!)),
      });
      expect(((await res.json()) as { status: string }).status).toBe('completed');
    }
  });

  it('shuts every process down gracefully on SIGTERM', async () => {
    const alive = [...procs.entries()].filter(([, c]) => c.exitCode === null && c.signalCode === null);
    for (const [, child] of alive) child.kill('SIGTERM');
    const codes = await Promise.all(alive.map(([, c]) => exited(c)));
    expect(codes).toEqual(alive.map(() => 0));
  });
});
