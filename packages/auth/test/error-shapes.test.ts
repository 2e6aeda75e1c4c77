/**
 * #22 defect 8: every error under /oauth in RFC 6749's shape, whichever layer answers it
 * (the input boundary, the Express part, oidc-provider), and a store outage answered 503
 * with Retry-After instead of 500 — Redis here is a closed loopback port.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createKeyValue, createMemoryKeyValue, type KeyValueStore } from '@skiptrace/kv';
import { createDatabase, type Database } from '@skiptrace/storage';
import { freePort } from '@skiptrace/testing';
import { startAuth, type RunningAuth } from './harness.ts';

let db: Database;
beforeAll(async () => {
  db = createDatabase({});
  await db.migrate();
}, 60_000);
afterAll(() => db?.close());

/** A confidential client with every grant, redirecting to the harness's /callback. */
async function webClient(auth: RunningAuth) {
  const { client, clientSecret } = await auth.service.accounts.createClient({
    name: 'Web',
    grantTypes: ['authorization_code', 'client_credentials'],
    redirectUris: [`${auth.url}/callback`],
    scopes: 'read',
  });
  return { id: client.clientId, secret: clientSecret! };
}

const authorizeUrl = (auth: RunningAuth, clientId: string) =>
  `${auth.url}/oauth/authorize?${new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: `${auth.url}/callback`,
    scope: 'read',
    state: 's',
  })}`;

async function json(res: Response) {
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as unknown };
}

describe('errors in the OAuth shape', () => {
  let auth: RunningAuth;
  beforeAll(async () => {
    auth = await startAuth(db, createMemoryKeyValue());
  });
  afterAll(() => auth?.close());

  it.each([
    ['/oauth/token?x=%zz', 'POST', {}, 400],
    ['/oauth/authorize?client_id=%zz', 'GET', {}, 400],
    ['/oauth/authorize?client_id=%01', 'GET', {}, 400],
    ['/oauth/token', 'POST', { 'content-encoding': 'gzip' }, 400],
    ['/oauth/token', 'POST', { 'content-encoding': 'compress' }, 415],
  ])('%s (%s %o) → %i {error, error_description}, not the API Error body', async (path, method, headers, status) => {
    const res = await fetch(`${auth.url}${path}`, {
      method,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: method === 'POST' ? 'grant_type=client_credentials' : undefined,
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await json(res)).toEqual({
      status,
      type: 'application/json; charset=utf-8',
      body: { error: 'invalid_request', error_description: expect.any(String) },
    });
  });
});

describe('Redis down: 503 with Retry-After', () => {
  let kv: KeyValueStore;
  let auth: RunningAuth;
  let client: { id: string; secret: string };
  beforeAll(async () => {
    // Nothing listens there: every command fails at once, as with a Redis that is down.
    kv = createKeyValue({ redisUrl: `redis://127.0.0.1:${await freePort()}` });
    auth = await startAuth(db, kv);
    client = await webClient(auth);
  });
  afterAll(async () => {
    await auth?.close();
    await kv?.close();
  });

  it('/oauth/authorize answers a 503 page, not a 500 or a redirect', async () => {
    const res = await fetch(authorizeUrl(auth, client.id), { redirect: 'manual' });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('Sign-in temporarily unavailable');
  });

  it('/oauth/token answers 503 temporarily_unavailable (its per-address limit lives in Redis)', async () => {
    const res = await fetch(`${auth.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.id,
        client_secret: client.secret,
      }),
    });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await json(res)).toEqual({
      status: 503,
      type: 'application/json; charset=utf-8',
      body: { error: 'temporarily_unavailable', error_description: 'the key-value store is unavailable, retry later' },
    });
  });

  it('what needs no Redis keeps answering', async () => {
    expect((await fetch(`${auth.url}/.well-known/openid-configuration`)).status).toBe(200);
    expect((await fetch(`${auth.url}/oauth/jwks`)).status).toBe(200);
  });
});
