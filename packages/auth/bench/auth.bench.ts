// Benchmark (not a test): `node packages/auth/bench/auth.bench.ts`.
// 1. client_credentials token issuance per second, sequential and 16 concurrent, against
//    the auth service on 127.0.0.1 (embedded: PGlite + memory kv; BENCH_DATABASE_URL and
//    BENCH_REDIS_URL select PostgreSQL + Redis).
// 2. GET throughput of an Express route behind the bearer middleware vs the same route
//    without auth (16 concurrent, keep-alive), with the verified-token cache on and off.
import { createServer, request, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import express from 'express';
import { createBearerAuth } from '@skiptrace/bearer';
import { createKeyValue } from '@skiptrace/kv';
import { errorHandler, silentLogger } from '@skiptrace/runtime';
import { createDatabase } from '@skiptrace/storage';
import { authConfig, createAuthService } from '../src/index.ts';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function call(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs count calls with `concurrency` in flight; returns calls per second. Fails on a non-2xx. */
async function measure(count: number, concurrency: number, fn: () => Promise<number>): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) {
        const status = await fn();
        if (status < 200 || status >= 300) throw new Error(`unexpected status ${status}`);
      }
    }),
  );
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function listen(handler: express.Express): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const db = createDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL });
await db.migrate();
const kv = createKeyValue({ redisUrl: process.env.BENCH_REDIS_URL, prefix: `bench:auth:${Date.now()}:` });
const authApp = express();
const { server: authServer, url: issuer } = await listen(authApp);
const config = authConfig({ issuer, tokenRateLimit: 1e9, tokenIpRateLimit: 1e9 });
const auth = await createAuthService({ db, kv, config, logger: silentLogger() });
authApp.use(auth.app);
const { client, clientSecret } = await auth.accounts.createClient({ name: 'bench', scopes: 'read write' });
const form = new URLSearchParams({
  grant_type: 'client_credentials',
  client_id: client.clientId,
  client_secret: clientSecret!,
  scope: 'read',
}).toString();
const tokenUrl = new URL(`${issuer}/oauth/token`);
const issue = () => call(tokenUrl, 'POST', { 'content-type': 'application/x-www-form-urlencoded' }, form);

await measure(50, 4, issue); // warm-up: JIT, scrypt verification cache
let tokenSeq = 0;
let tokenConc = 0;
for (let round = 0; round < 2; round++) {
  tokenSeq = Math.max(tokenSeq, await measure(300, 1, issue));
  tokenConc = Math.max(tokenConc, await measure(1000, 16, issue));
}

const res = await fetch(tokenUrl, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: form,
});
const { access_token: token } = (await res.json()) as { access_token: string };

async function routeApp(withAuth: boolean, cacheSize?: number): Promise<{ server: Server; url: URL }> {
  const app = express();
  if (withAuth) {
    const bearer = createBearerAuth({ issuer, audience: config.apiAudience, jwks: () => auth.jwks(), cacheSize });
    app.use('/api/v1', bearer.middleware, bearer.requireScope('read'));
  }
  app.get('/api/v1/things', (_req, res) => {
    res.json({ ok: true });
  });
  app.use(errorHandler());
  const { server, url } = await listen(app);
  return { server, url: new URL(`${url}/api/v1/things`) };
}

// Rounds interleave the three variants so that background load hits them alike; the
// best round of each is reported.
const GETS = 10_000;
const ROUNDS = 3;
const variants = [
  ['no auth', await routeApp(false)],
  ['bearer (cache)', await routeApp(true)],
  ['bearer (no cache)', await routeApp(true, 0)],
] as const;
const results: Record<string, number> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, { url }] of variants) {
    const get = () => call(url, 'GET', { authorization: `Bearer ${token}` });
    if (round === 0) await measure(1000, 16, get);
    results[name] = Math.max(results[name] ?? 0, await measure(GETS, 16, get));
  }
}
for (const [, { server }] of variants) server.close();

const fmt = (n: number) => n.toFixed(0).padStart(8);
process.stdout.write(
  [
    `date ${new Date().toISOString()}  node ${process.version}  cpus ${cpus().length}  db ${db.kind}  kv ${kv.kind}`,
    `client_credentials tokens/s   sequential ${fmt(tokenSeq)}   16 concurrent ${fmt(tokenConc)}`,
    `GET req/s (16 concurrent, best of ${ROUNDS} rounds of ${GETS} requests):`,
    ...Object.entries(results).map(
      ([name, rps]) => `  ${name.padEnd(18)} ${fmt(rps)}   ratio to no auth ${(rps / results['no auth']!).toFixed(2)}`,
    ),
    '',
  ].join('\n'),
);

agent.destroy();
await auth.close();
authServer.close();
await kv.close();
await db.close();
