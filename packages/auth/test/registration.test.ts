/** RFC 7591 dynamic client registration with SKIPTRACE_ADMIN_TOKEN as the initial access token. */
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import * as client from 'openid-client';
import { decodeJwt } from 'jose';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { createDatabase, type Database } from '@skiptrace/storage';
import { ADMIN_TOKEN, startAuth, type RunningAuth } from './harness.ts';

let db: Database;
let auth: RunningAuth;

beforeAll(async () => {
  db = createDatabase({});
  await db.migrate();
  auth = await startAuth(db, createMemoryKeyValue());
}, 60_000);
afterAll(async () => {
  await auth.close();
  await db.close();
});

const register = (body: Record<string, unknown>, token?: string) =>
  fetch(`${auth.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

const m2mClient = {
  client_name: 'Registered importer',
  grant_types: ['client_credentials'],
  response_types: [],
  redirect_uris: [],
  scope: 'read',
};

describe('dynamic client registration', () => {
  it('is advertised in discovery', async () => {
    const meta = (await (await fetch(`${auth.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(meta).toMatchObject({
      registration_endpoint: `${auth.url}/oauth/register`,
      token_endpoint: `${auth.url}/oauth/token`,
      authorization_endpoint: `${auth.url}/oauth/authorize`,
      jwks_uri: `${auth.url}/oauth/jwks`,
      revocation_endpoint: `${auth.url}/oauth/revoke`,
      introspection_endpoint: `${auth.url}/oauth/introspect`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(meta.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']),
    );
  });

  it('without the admin token → 401 invalid_token', async () => {
    const res = await register(m2mClient);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('with a wrong token → 401 invalid_token', async () => {
    const res = await register(m2mClient, 'not-the-admin-token-at-all');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('with the admin token → 201, a new account, a secret stored hashed, and a working client', async () => {
    const res = await register(m2mClient, ADMIN_TOKEN);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { client_id: string; client_secret: string; account_id: string };
    expect(body).toMatchObject({
      client_name: 'Registered importer',
      client_id: expect.stringMatching(/^cli_/),
      account_id: expect.stringMatching(/^acc_/),
    });
    const stored = await auth.service.accounts.findClient(body.client_id);
    expect(stored?.secretHash).toMatch(/^scrypt\$/);
    expect(stored?.secretHash).not.toContain(body.client_secret);
    const config = await client.discovery(
      new URL(auth.url),
      body.client_id,
      body.client_secret,
      client.ClientSecretPost(body.client_secret),
      {
        execute: [client.allowInsecureRequests],
      },
    );
    const tokens = await client.clientCredentialsGrant(config, { scope: 'read' });
    expect(decodeJwt(tokens.access_token)).toMatchObject({ account_id: body.account_id, client_id: body.client_id });
  });

  it('naming an existing account puts the client in it', async () => {
    const account = await auth.service.accounts.createAccount({ name: 'Existing' });
    const res = await register({ ...m2mClient, account_id: account.id }, ADMIN_TOKEN);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ account_id: account.id });
  });

  it('an unknown account or a bad scope → 400 invalid_client_metadata', async () => {
    const unknown = await register({ ...m2mClient, account_id: 'acc_missing' }, ADMIN_TOKEN);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_client_metadata' });
    const scope = await register({ ...m2mClient, scope: 'superuser' }, ADMIN_TOKEN);
    expect(scope.status).toBe(400);
    expect(await scope.json()).toMatchObject({ error: 'invalid_client_metadata' });
  });

  it('is switched off without SKIPTRACE_ADMIN_TOKEN', async () => {
    const other = await startAuth(db, createMemoryKeyValue(), { adminToken: undefined });
    try {
      const meta = (await (await fetch(`${other.url}/.well-known/oauth-authorization-server`)).json()) as Record<
        string,
        unknown
      >;
      expect(meta.registration_endpoint).toBeUndefined();
      const res = await fetch(`${other.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(404);
    } finally {
      await other.close();
    }
  });
});
