/** Signing keys (generation, persistence, rotation), the demo tenant and config parsing. */
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { decodeProtectedHeader } from 'jose';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { ConfigError } from '@skiptrace/runtime';
import { createDatabase, type Database } from '@skiptrace/storage';
import { loadAuthConfig } from '../src/index.ts';
import { startAuth } from './harness.ts';

let db: Database;
let dataDir: string;

beforeAll(async () => {
  db = createDatabase({});
  await db.migrate();
  dataDir = await mkdtemp(join(tmpdir(), 'auth-keys-'));
}, 60_000);
afterAll(async () => {
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
});

const kids = (jwks: { keys: { kid?: string; alg?: string }[] }) => jwks.keys.map((k) => `${k.alg}:${k.kid}`);

describe('signing keys', () => {
  it('generates ES256 + RS256 once, in <dataDir>/keys.json (0600), and reuses them after a restart', async () => {
    const first = await startAuth(db, createMemoryKeyValue(), { dataDir });
    const published = first.service.jwks();
    await first.close();
    expect(published.keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(published.keys.every((k) => !('d' in k))).toBe(true);
    expect((await stat(join(dataDir, 'keys.json'))).mode & 0o777).toBe(0o600);
    const second = await startAuth(db, createMemoryKeyValue(), { dataDir });
    expect(kids(second.service.jwks())).toEqual(kids(published));
    await second.close();
  });

  it('keeps keys in the database when there is no data directory', async () => {
    const a = await startAuth(db, createMemoryKeyValue());
    const b = await startAuth(db, createMemoryKeyValue());
    expect(kids(b.service.jwks())).toEqual(kids(a.service.jwks()));
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM auth_signing_keys');
    expect(rows[0]!.n).toBe(2);
    await Promise.all([a.close(), b.close()]);
  });

  it('rotation adds a key first and keeps the old one published; new tokens use the new kid', async () => {
    const before = await startAuth(db, createMemoryKeyValue(), { dataDir });
    const oldKids = kids(before.service.jwks());
    const added = await before.service.rotateSigningKey();
    await before.close();
    const after = await startAuth(db, createMemoryKeyValue(), { dataDir });
    try {
      const now = kids(after.service.jwks());
      expect(now).toEqual(expect.arrayContaining(oldKids));
      expect(now.find((k) => k.startsWith('ES256:'))).toBe(`ES256:${added[0]!.kid}`);
      const c = await after.service.accounts.createClient({ name: 'rotation' });
      const config = await client.discovery(
        new URL(after.url),
        c.client.clientId,
        c.clientSecret!,
        client.ClientSecretPost(c.clientSecret!),
        {
          execute: [client.allowInsecureRequests],
        },
      );
      const tokens = await client.clientCredentialsGrant(config, { scope: 'read' });
      expect(decodeProtectedHeader(tokens.access_token).kid).toBe(added[0]!.kid);
    } finally {
      await after.close();
    }
  });

  it('a key with a future activation is published but does not sign yet', async () => {
    const svc = await startAuth(db, createMemoryKeyValue(), { dataDir });
    const pending = await svc.service.rotateSigningKey({ activateInSec: 3600 });
    await svc.close();
    const next = await startAuth(db, createMemoryKeyValue(), { dataDir });
    const list = kids(next.service.jwks());
    expect(list).toContain(`ES256:${pending[0]!.kid}`);
    expect(list.find((k) => k.startsWith('ES256:'))).not.toBe(`ES256:${pending[0]!.kid}`);
    await next.close();
  });
});

describe('demo tenant', () => {
  it('is created once; later starts return the same credentials from the data directory', async () => {
    const auth = await startAuth(db, createMemoryKeyValue(), { dataDir });
    try {
      const first = await auth.service.ensureDemo({ redirectUri: `${auth.url}/callback` });
      expect(first).toMatchObject({ created: true, clientId: 'demo-client', scopes: 'read write admin' });
      const again = await auth.service.ensureDemo({ redirectUri: `${auth.url}/callback` });
      expect(again).toEqual({ ...first, created: false });
      const file = JSON.parse(await readFile(join(dataDir, 'demo-credentials.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      expect(file.clientSecret).toBe(first.clientSecret);
      expect((await auth.service.accounts.verifyUser(first.email, first.password))?.accountId).toBe(first.accountId);
      const c = await auth.service.accounts.findClient(first.clientId);
      expect(c?.grantTypes.sort()).toEqual(['authorization_code', 'client_credentials', 'refresh_token']);
      const config = await client.discovery(
        new URL(auth.url),
        first.clientId,
        first.clientSecret,
        client.ClientSecretPost(first.clientSecret),
        {
          execute: [client.allowInsecureRequests],
        },
      );
      await expect(client.clientCredentialsGrant(config, { scope: 'read write' })).resolves.toMatchObject({
        scope: 'read write',
      });
    } finally {
      await auth.close();
    }
  });
});

describe('configuration', () => {
  it('has the documented defaults', () => {
    expect(loadAuthConfig({})).toMatchObject({
      issuer: 'http://localhost:8081',
      apiAudience: 'urn:skiptrace:api',
      accessTokenTtl: 3600,
      refreshTokenTtl: 2592000,
      trustProxy: false,
    });
  });

  it('fails fast on bad values, naming each', () => {
    expect(() =>
      loadAuthConfig({ AUTH_ISSUER: 'not a url', SKIPTRACE_ADMIN_TOKEN: 'short', AUTH_SIGNING_KEYS: '{"keys":[]}' }),
    ).toThrow(ConfigError);
    try {
      loadAuthConfig({ AUTH_ISSUER: 'not a url', SKIPTRACE_ADMIN_TOKEN: 'short', AUTH_TRUST_PROXY: 'yes' });
    } catch (err) {
      expect((err as Error).message).toMatch(
        /AUTH_ISSUER[\s\S]*SKIPTRACE_ADMIN_TOKEN|SKIPTRACE_ADMIN_TOKEN[\s\S]*AUTH_ISSUER/,
      );
      expect((err as Error).message).toContain('AUTH_TRUST_PROXY');
    }
  });
});
