import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { importContacts } from '@skiptrace/contacts';
import { createSystem, type System } from '@skiptrace/standalone';
import { createPostgresDatabase, type Database } from '@skiptrace/storage';
import { createTestDatabaseUrl, type TestDatabase } from '@skiptrace/testing';

// The one-process system honours the services' settings: started with the operator's
// token, an audience, a token lifetime, a token rate limit, a body limit, a pool size and
// a household cap, it behaves as the auth server, the gateway and the worker do with the
// same variables.
const ADMIN_TOKEN = 'operator-secret-for-registration';
const AUDIENCE = 'urn:example:settings-test';
const POOL_MAX = 3;
const MAX_PEOPLE = 3;
/** A building without unit numbers where more people live than TRACE_MAX_PEOPLE returns. */
const HALL = { street_address: '900 College Ave', city: 'Springfield', state: 'IL', zip_code: '62704' };
const HOME = { street_address: '14 Birch Ln', city: 'Springfield', state: 'IL', zip_code: '62704' };
const HALL_NAMES = ['Ada', 'Boris', 'Chloe', 'Diego', 'Elif', 'Femi', 'Gus'];

let system: System;
let base: string;
let dataDir: string;
let testDb: TestDatabase;
let observer: Database;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiptrace-settings-'));
  testDb = await createTestDatabaseUrl('e2e_settings');
  system = await createSystem({
    PORT: '0',
    SKIPTRACE_DATA_DIR: dataDir,
    SKIPTRACE_DEMO_ROWS: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.url,
    DATABASE_POOL_MAX: String(POOL_MAX),
    SKIPTRACE_ADMIN_TOKEN: ADMIN_TOKEN,
    API_AUDIENCE: AUDIENCE,
    AUTH_ACCESS_TOKEN_TTL: '120',
    AUTH_TOKEN_RATE_LIMIT: '4',
    MAX_BODY_BYTES: '2048',
    TRACE_MAX_PEOPLE: String(MAX_PEOPLE),
  });
  base = await system.start();
  observer = createPostgresDatabase({ url: testDb.url, max: 1 });
}, 120_000);

afterAll(async () => {
  await system?.stop('test done');
  await observer?.close();
  await testDb?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const register = (token?: string) =>
  fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({
      client_name: 'settings test',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope: 'read write',
    }),
  });

const tokenRequest = (client: { client_id: string; client_secret: string }) =>
  fetch(`${base}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', ...client, scope: 'read write' }),
  });

const claims = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { aud: string; exp: number; iat: number };

describe('one-process system with the services settings', () => {
  let client: { client_id: string; client_secret: string };
  let token: string;

  it('registers clients with SKIPTRACE_ADMIN_TOKEN (and only with it)', async () => {
    expect((await register()).status).toBe(401);
    expect((await register('not-the-operator-token')).status).toBe(401);
    const res = await register(ADMIN_TOKEN);
    expect(res.status).toBe(201);
    client = (await res.json()) as typeof client;
    expect(client.client_id).toEqual(expect.any(String));
    const discovery = (await (await fetch(`${base}/.well-known/openid-configuration`)).json()) as Record<
      string,
      string
    >;
    expect(discovery.registration_endpoint).toMatch(/\/oauth\/register$/);
  });

  it('issues tokens for API_AUDIENCE lasting AUTH_ACCESS_TOKEN_TTL, which the gateway accepts', async () => {
    const res = await tokenRequest(client);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; expires_in: number };
    expect(body.expires_in).toBe(120);
    const { aud, exp, iat } = claims(body.access_token);
    expect(aud).toBe(AUDIENCE);
    expect(exp - iat).toBe(120);
    token = body.access_token;
    const listed = await fetch(`${base}/api/v1/property/skiptrace?limit=1`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(listed.status).toBe(200);
  });

  it('answers 413 past MAX_BODY_BYTES', async () => {
    const property = { street_address: '1 Main St', city: 'Springfield', state: 'IL', zip_code: '62701' };
    const post = (extra: string) =>
      fetch(`${base}/api/v1/property/skiptrace`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...property, first_name: extra }),
      });
    const big = await post('x'.repeat(3000));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: 1004 });
    expect((await post('Ann')).status).toBe(200);
  });

  it('opens no more database connections than DATABASE_POOL_MAX under concurrent load', async () => {
    const peak = { value: 0 };
    const connections = async () => {
      const { rows } = await observer.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      return Number(rows[0]!.n);
    };
    const calls = Array.from({ length: 40 }, () =>
      fetch(`${base}/api/v1/property/skiptrace?limit=50`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.status,
      ),
    );
    let done = false;
    const sampling = (async () => {
      while (!done) {
        peak.value = Math.max(peak.value, await connections());
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const statuses = await Promise.all(calls);
    done = true;
    await sampling;
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(peak.value).toBeGreaterThan(0);
    expect(peak.value).toBeLessThanOrEqual(POOL_MAX);
  });

  it('returns at most TRACE_MAX_PEOPLE residents for an address and says how many matched', async () => {
    const rows = [
      ...HALL_NAMES.map((first, i) => ({ ...HALL, first_name: first, last_name: `Hall${i}`, i })),
      { ...HOME, first_name: 'Rosa', last_name: 'Diaz', i: 10 },
      { ...HOME, first_name: 'Luis', last_name: 'Diaz', i: 11 },
    ];
    async function* ndjson() {
      for (const { i, ...r } of rows)
        yield `${JSON.stringify({ ...r, phone_1: `+1217555${String(100 + i).padStart(4, '0')}`, phone_1_type: 'mobile' })}\n`;
    }
    await importContacts(observer, ndjson(), { format: 'ndjson', source: 'settings test' });
    const trace = async (property: object) => {
      const res = await fetch(`${base}/api/v1/property/skiptrace`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(property),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as {
        id: number;
        status: string;
        truncated: boolean;
        people_total?: number;
        results: { first_name: string; reasons: string[]; phones: unknown[] }[];
      };
    };
    const hall = await trace(HALL);
    expect(hall).toMatchObject({ status: 'completed', truncated: true, people_total: HALL_NAMES.length });
    expect(hall.results).toHaveLength(MAX_PEOPLE);
    for (const person of hall.results) {
      expect(HALL_NAMES).toContain(person.first_name);
      expect(person.reasons.length).toBeGreaterThan(0);
      expect(person.phones).toHaveLength(1);
    }
    // Polling the id answers the same, from the stored row.
    const again = await fetch(`${base}/api/v1/property/skiptrace/${hall.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await again.json()).toMatchObject({ truncated: true, people_total: HALL_NAMES.length });

    const home = await trace(HOME);
    expect(home).toMatchObject({ status: 'completed', truncated: false });
    expect(home).not.toHaveProperty('people_total');
    expect(home.results.map((r) => r.first_name).sort()).toEqual(['Luis', 'Rosa']);
    // A named query asks for one person: never truncated.
    const named = await trace({ ...HALL, first_name: 'Diego', last_name: 'Hall3' });
    expect(named).toMatchObject({ status: 'completed', truncated: false, results: [{ first_name: 'Diego' }] });
  });

  it('answers 429 past AUTH_TOKEN_RATE_LIMIT token requests per client per minute', async () => {
    // One token was issued above; the limit is 4 per minute.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await tokenRequest(client)).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
