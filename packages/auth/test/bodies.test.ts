/**
 * #22 items 1 and 4 on the OAuth server: compressed form bodies (gzip, deflate, br) are
 * undone within oidc-provider's own body limit — a decompression bomb is refused with 413 in
 * RFC 6749's shape while it streams — and a JSON body (dynamic client registration) meets
 * the JSON limits (depth, string length, keys, elements) before it is parsed.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { createDatabase, type Database } from '@skiptrace/storage';
import { ADMIN_TOKEN, startAuth, type RunningAuth } from './harness.ts';

let db: Database;
let auth: RunningAuth;
let client: { id: string; secret: string };
beforeAll(async () => {
  db = createDatabase({});
  await db.migrate();
  auth = await startAuth(db, createMemoryKeyValue());
  const made = await auth.service.accounts.createClient({
    name: 'Importer',
    grantTypes: ['client_credentials'],
    scopes: 'read',
  });
  client = { id: made.client.clientId, secret: made.clientSecret! };
}, 60_000);
afterAll(async () => {
  await auth?.close();
  await db?.close();
});

const CODINGS = [
  ['gzip', gzipSync],
  ['deflate', deflateSync],
  ['br', brotliCompressSync],
] as const;

const post = (path: string, body: Uint8Array | string, headers: Record<string, string>) =>
  fetch(`${auth.url}${path}`, { method: 'POST', body, headers });

async function answer(res: Response) {
  return {
    status: res.status,
    cacheControl: res.headers.get('cache-control'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

describe('compressed forms on /oauth/*', () => {
  const form = () =>
    new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.id,
      client_secret: client.secret,
      scope: 'read',
    });

  it.each(CODINGS)('a %s form is undone: the token endpoint answers as for a plain one', async (coding, encode) => {
    const res = await post('/oauth/token', encode(form().toString()), {
      'content-type': 'application/x-www-form-urlencoded',
      'content-encoding': coding,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: 'Bearer', scope: 'read' });
  });

  // 64 MiB of form text in a few KB; the provider's limit is 56 KiB.
  const bomb = `scope=${'a'.repeat(64 * 1024 * 1024)}`;
  it.each(CODINGS)(
    'a %s decompression bomb is refused with 413 in RFC 6749 shape on every endpoint that reads a body, fast',
    async (coding, encode) => {
      const compressed = encode(bomb);
      expect(compressed.length).toBeLessThan(200_000);
      for (const [path, type] of [
        ['/oauth/token', 'application/x-www-form-urlencoded'],
        ['/oauth/revoke', 'application/x-www-form-urlencoded'],
        ['/oauth/introspect', 'application/x-www-form-urlencoded'],
        ['/oauth/authorize', 'application/x-www-form-urlencoded'],
        ['/oauth/register', 'application/json'],
        ['/interaction/some-uid/login', 'application/x-www-form-urlencoded'],
      ] as const) {
        const started = performance.now();
        const res = await post(path, compressed, { 'content-type': type, 'content-encoding': coding });
        expect({ path, ...(await answer(res)) }).toEqual({
          path,
          status: 413,
          cacheControl: 'no-store',
          body: { error: 'invalid_request', error_description: expect.stringMatching(/too large|larger than/) },
        });
        expect(performance.now() - started).toBeLessThan(2_000);
      }
    },
  );

  it('a body that is not what its Content-Encoding says → 400 invalid_request; an unknown coding → 415', async () => {
    const bad = await post('/oauth/token', form().toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      'content-encoding': 'gzip',
    });
    expect(await answer(bad)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const unknown = await post('/oauth/token', form().toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      'content-encoding': 'compress',
    });
    expect(await answer(unknown)).toMatchObject({ status: 415, body: { error: 'invalid_request' } });
  });
});

describe('JSON bodies on /oauth/register', () => {
  const register = (text: string | Uint8Array, headers: Record<string, string> = {}) =>
    post('/oauth/register', text, {
      'content-type': 'application/json',
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...headers,
    });
  const metadata = (extra: string) =>
    `{"client_name":"Registered","grant_types":["client_credentials"],"response_types":[],"redirect_uris":[],"scope":"read","x":${extra}}`;

  it.each([
    ['a string longer than 16384 characters', `"${'a'.repeat(16_385)}"`],
    ['an object with more than 1000 keys', `{${Array.from({ length: 1_001 }, (_, i) => `"k${i}":0`).join(',')}}`],
    ['an array with more than 1000 elements', `[${Array(1_001).fill('0').join(',')}]`],
    ['nests objects and arrays deeper than 64 levels', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
  ])('refuses a body with %s: 400 invalid_request naming the limit, plain or compressed', async (limit, extra) => {
    const described = limit.startsWith('nests') ? `the body ${limit}` : `the body has ${limit}`;
    for (const [coding, encode] of [['identity', (t: string) => Buffer.from(t)], ...CODINGS] as const) {
      const res = await register(encode(metadata(extra)), { 'content-encoding': coding });
      expect({ coding, ...(await answer(res)) }).toEqual({
        coding,
        status: 400,
        cacheControl: 'no-store',
        body: { error: 'invalid_request', error_description: described },
      });
    }
  });

  it('registers a client from a plain or a compressed JSON body within the limits', async () => {
    const plain = await register(metadata('"fine"'));
    expect(plain.status).toBe(201);
    const zipped = await register(gzipSync(metadata(`[${Array(1_000).fill('0').join(',')}]`)), {
      'content-encoding': 'gzip',
    });
    expect(zipped.status).toBe(201);
    expect(await zipped.json()).toMatchObject({ client_name: 'Registered', client_id: expect.stringMatching(/^cli_/) });
  });

  it('refuses a control character, malformed JSON and a body that is not an object with 400', async () => {
    for (const text of [metadata('"a\\u0000b"'), '{"client_name":', '[1,2]']) {
      expect(await answer(await register(text))).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    }
  });
});
