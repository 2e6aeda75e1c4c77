import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import * as client from 'openid-client';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createDatabase, type Database } from '@skiptrace/storage';
import { createBearerAuth } from '@skiptrace/bearer';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { startAuth, type RunningAuth } from './harness.ts';

let db: Database;
let auth: RunningAuth;
let clientId: string;
let clientSecret: string;
let accountId: string;

beforeAll(async () => {
  db = createDatabase({});
  await db.migrate();
  auth = await startAuth(db, createMemoryKeyValue());
  const created = await auth.service.accounts.createClient({ name: 'Batch importer', scopes: 'read write' });
  clientId = created.client.clientId;
  clientSecret = created.clientSecret!;
  accountId = created.client.accountId;
}, 60_000);
afterAll(async () => {
  await auth.close();
  await db.close();
});

const discover = (id = clientId, secret = clientSecret) =>
  client.discovery(new URL(auth.url), id, secret, client.ClientSecretPost(secret), {
    execute: [client.allowInsecureRequests],
  });

describe('client_credentials', () => {
  it('issues a 3600 s JWT access token for the API audience, without a refresh token', async () => {
    const config = await discover();
    const tokens = await client.clientCredentialsGrant(config, { scope: 'read' });
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeUndefined();
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ typ: 'at+jwt', alg: 'ES256' });
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      iss: auth.url,
      aud: 'urn:skiptrace:api',
      scope: 'read',
      client_id: clientId,
      sub: clientId,
      account_id: accountId,
    });
  });

  it('answers the raw token response exactly as the seed documents', async () => {
    const res = await fetch(`${auth.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope: 'read',
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read' });
    expect(typeof body.access_token).toBe('string');
  });

  it('issues tokens the bearer middleware accepts', async () => {
    const config = await discover();
    const tokens = await client.clientCredentialsGrant(config, { scope: 'read write' });
    const bearer = createBearerAuth({
      issuer: auth.url,
      audience: 'urn:skiptrace:api',
      jwksUrl: new URL(`${auth.url}/oauth/jwks`),
    });
    await expect(bearer.verify(tokens.access_token)).resolves.toEqual({
      accountId,
      clientId,
      subject: clientId,
      scopes: ['read', 'write'],
    });
  });

  it('rejects a wrong secret with 401 invalid_client', async () => {
    const res = await fetch(`${auth.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: 'wrong',
        scope: 'read',
      }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });
});
