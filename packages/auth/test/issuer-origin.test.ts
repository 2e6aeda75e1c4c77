/**
 * #22 defect 5: discovery trusted `Host`. Every URL the OAuth server hands out must come from
 * the configured issuer, whatever host the request names — in `Host`, in `X-Forwarded-Host`
 * behind a trusted proxy, or in an absolute-form request target.
 */
import { request } from 'node:http';
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { createDatabase, type Database } from '@skiptrace/storage';
import { startAuth, type RunningAuth } from './harness.ts';

const ISSUER = 'https://auth.skiptrace.example';

let db: Database;
let direct: RunningAuth;
let proxied: RunningAuth;
let clientId: string;

beforeAll(async () => {
  db = createDatabase({});
  await db.migrate();
  direct = await startAuth(db, createMemoryKeyValue(), { issuer: ISSUER });
  proxied = await startAuth(db, createMemoryKeyValue(), { issuer: ISSUER, trustProxy: true });
  const c = await direct.service.accounts.createClient({
    name: 'Web app',
    grantTypes: ['authorization_code'],
    redirectUris: ['https://app.skiptrace.example/callback'],
    scopes: 'read',
  });
  clientId = c.client.clientId;
}, 60_000);
afterAll(async () => {
  await direct?.close();
  await proxied?.close();
  await db?.close();
});

/** A raw request, so `Host` and the request target are what the test says. */
function send(base: string, path: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; location?: string; body: string }>((resolve, reject) => {
    const req = request({ host: hostname, port, path, headers, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every absolute URL in a discovery document. */
const urlsOf = (doc: Record<string, unknown>) =>
  Object.values(doc).filter((v): v is string => typeof v === 'string' && /^https?:/.test(v));

describe('the issuer is configuration', () => {
  const hostile: [string, () => RunningAuth, string, Record<string, string>][] = [
    ['Host', () => direct, '/.well-known/openid-configuration', { host: 'evil.example' }],
    ['an honest Host that is not the issuer', () => direct, '/.well-known/openid-configuration', {}],
    [
      'X-Forwarded-Host behind a trusted proxy',
      () => proxied,
      '/.well-known/openid-configuration',
      { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    ],
    [
      'an absolute-form request target',
      () => direct,
      'http://evil.example/.well-known/openid-configuration',
      { host: 'evil.example' },
    ],
  ];

  it.each(hostile)('discovery ignores %s', async (_name, server, path, headers) => {
    const res = await send(server().url, path, headers);
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.body) as Record<string, unknown>;
    const urls = urlsOf(doc);
    expect(urls.length).toBeGreaterThanOrEqual(8);
    for (const url of urls) expect(url.startsWith(`${ISSUER}/`) || url === ISSUER).toBe(true);
    expect(doc.token_endpoint).toBe(`${ISSUER}/oauth/token`);
    expect(doc.jwks_uri).toBe(`${ISSUER}/oauth/jwks`);
  });

  it('the authorization redirect to sign-in names no other host', async () => {
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: 'https://app.skiptrace.example/callback',
      scope: 'read',
      state: 'st',
    });
    const res = await send(direct.url, `/oauth/authorize?${query}`, { host: 'evil.example' });
    expect(res.status).toBe(303);
    const location = new URL(res.location!, ISSUER);
    expect(location.origin).toBe(ISSUER);
    expect(location.pathname).toMatch(/^\/interaction\/[\w-]+$/);
  });
});
