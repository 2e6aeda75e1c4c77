/**
 * Every OAuth error code the token and authorization endpoints emit, provoked by a raw
 * HTTP client (so nothing is normalised on the way), with its RFC 6749 status.
 */
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { createDatabase, type Database } from '@skiptrace/storage';
import { startAuth, type RunningAuth } from './harness.ts';

let db: Database;
let auth: RunningAuth;
let m2m: { id: string; secret: string };
let web: { id: string; secret: string };
let pub: string;

beforeAll(async () => {
  db = createDatabase({});
  await db.migrate();
  auth = await startAuth(db, createMemoryKeyValue());
  const accounts = auth.service.accounts;
  const a = await accounts.createClient({ name: 'M2M', grantTypes: ['client_credentials'], scopes: 'read' });
  m2m = { id: a.client.clientId, secret: a.clientSecret! };
  const b = await accounts.createClient({
    name: 'Web',
    grantTypes: ['authorization_code', 'refresh_token'],
    redirectUris: [`${auth.url}/callback`],
    scopes: 'read write',
  });
  web = { id: b.client.clientId, secret: b.clientSecret! };
  const c = await accounts.createClient({
    name: 'SPA',
    public: true,
    grantTypes: ['authorization_code'],
    redirectUris: [`${auth.url}/callback`],
    scopes: 'read',
  });
  pub = c.client.clientId;
}, 60_000);
afterAll(async () => {
  await auth.close();
  await db.close();
});

async function token(form: Record<string, string>) {
  const res = await fetch(`${auth.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as { error?: string; error_description?: string } };
}

const authorize = (params: Record<string, string>) =>
  fetch(`${auth.url}/oauth/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });

describe('token endpoint errors', () => {
  it('invalid_request (400): no client authentication, or a missing parameter', async () => {
    expect(await token({ grant_type: 'client_credentials', scope: 'read' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: expect.any(String) },
    });
    const missing = await token({ grant_type: 'authorization_code', client_id: web.id, client_secret: web.secret });
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(missing.body.error_description).toContain('code');
  });

  it('invalid_client (401): unknown client or wrong secret', async () => {
    const unknown = await token({
      grant_type: 'client_credentials',
      client_id: 'nope',
      client_secret: 'x',
      scope: 'read',
    });
    expect(unknown).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const wrong = await token({
      grant_type: 'client_credentials',
      client_id: m2m.id,
      client_secret: 'x',
      scope: 'read',
    });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('invalid_grant (400): unknown code or refresh token', async () => {
    const code = await token({
      grant_type: 'authorization_code',
      client_id: web.id,
      client_secret: web.secret,
      code: 'not-a-code',
      redirect_uri: `${auth.url}/callback`,
    });
    expect(code).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const refresh = await token({
      grant_type: 'refresh_token',
      client_id: web.id,
      client_secret: web.secret,
      refresh_token: 'nope',
    });
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('unauthorized_client (400): a grant the client is not registered for', async () => {
    const res = await token({
      grant_type: 'client_credentials',
      client_id: web.id,
      client_secret: web.secret,
      scope: 'read',
    });
    expect(res).toMatchObject({ status: 400, body: { error: 'unauthorized_client' } });
    const refresh = await token({
      grant_type: 'refresh_token',
      client_id: m2m.id,
      client_secret: m2m.secret,
      refresh_token: 'x',
    });
    expect(refresh).toMatchObject({ status: 400, body: { error: 'unauthorized_client' } });
  });

  it('invalid_scope (400): a scope the client was not given', async () => {
    const res = await token({
      grant_type: 'client_credentials',
      client_id: m2m.id,
      client_secret: m2m.secret,
      scope: 'write',
    });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });

  it('admin through client_credentials: only for a client created with it', async () => {
    const { client, clientSecret } = await auth.service.accounts.createClient({
      name: 'Ops',
      grantTypes: ['client_credentials'],
      scopes: 'read admin',
    });
    const granted = await token({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: clientSecret!,
      scope: 'read admin',
    });
    expect(granted).toMatchObject({ status: 200, body: { scope: 'read admin' } });
    const refused = await token({
      grant_type: 'client_credentials',
      client_id: m2m.id,
      client_secret: m2m.secret,
      scope: 'admin',
    });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });

  it.each(['read superuser', 'superuser', 'read email'])(
    'invalid_scope (400): an unknown scope (%s) is refused, not dropped',
    async (scope) => {
      const res = await token({
        grant_type: 'client_credentials',
        client_id: m2m.id,
        client_secret: m2m.secret,
        scope,
      });
      expect(res).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
      expect(res.body.error_description).toMatch(/unknown scope/);
      const named = await token({
        grant_type: 'client_credentials',
        client_id: m2m.id,
        client_secret: m2m.secret,
        scope,
        resource: 'urn:skiptrace:api',
      });
      expect(named).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    },
  );

  it.each([
    ['PUT', '/oauth/token', 405, 'POST'],
    ['OPTIONS', '/oauth/introspect', 405, 'POST'],
    ['GET', '/oauth/revoke', 405, 'POST'],
    ['DELETE', '/.well-known/openid-configuration', 405, 'GET'],
    ['GET', '/oauth/nothing-here', 404, null],
    ['POST', '/.well-known/unknown', 404, null],
  ])('%s %s: %i in the OAuth error shape, never a bare text answer', async (method, path, status, allow) => {
    const res = await fetch(`${auth.url}${path}`, { method });
    expect(res.status).toBe(status);
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('unsupported_grant_type (400)', async () => {
    const res = await token({
      grant_type: 'password',
      client_id: m2m.id,
      client_secret: m2m.secret,
      username: 'u',
      password: 'p',
    });
    expect(res).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
  });
});

describe('authorization endpoint errors', () => {
  const redirect_uri = () => `${auth.url}/callback`;

  it('an untrusted redirect_uri is never redirected to: a clear 400 page instead', async () => {
    const res = await authorize({
      response_type: 'code',
      client_id: web.id,
      redirect_uri: 'https://evil.example/cb',
      scope: 'read',
      state: 's1',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html).toContain('Sign-in request rejected');
    expect(html).toContain('redirect_uri');
  });

  it('an unknown client gets the same page', async () => {
    const res = await authorize({
      response_type: 'code',
      client_id: 'nope',
      redirect_uri: redirect_uri(),
      scope: 'read',
      state: 's1',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('invalid_client');
  });

  it('other errors redirect to the client with error and state', async () => {
    const res = await authorize({ client_id: web.id, redirect_uri: redirect_uri(), scope: 'read', state: 's2' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(redirect_uri());
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toContain('response_type');
    expect(location.searchParams.get('state')).toBe('s2');
  });

  it('a public client without PKCE is refused (invalid_request at the client)', async () => {
    const res = await authorize({
      response_type: 'code',
      client_id: pub,
      redirect_uri: redirect_uri(),
      scope: 'read',
      state: 's3',
    });
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
    expect(location.searchParams.get('state')).toBe('s3');
  });

  it('a scope the client was not given: invalid_scope at the client', async () => {
    const res = await authorize({
      response_type: 'code',
      client_id: pub,
      redirect_uri: redirect_uri(),
      scope: 'write',
      state: 's4',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
  });

  it('an unknown scope: invalid_scope at the client, before any sign-in', async () => {
    const res = await authorize({
      response_type: 'code',
      client_id: web.id,
      redirect_uri: redirect_uri(),
      scope: 'read write superuser',
      state: 's5',
    });
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(redirect_uri());
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('state')).toBe('s5');
  });

  it('admin from a third-party app, even one registered with it: invalid_scope, before any sign-in', async () => {
    const { client } = await auth.service.accounts.createClient({
      name: 'Third party',
      grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
      redirectUris: [redirect_uri()],
      scopes: 'read write admin',
    });
    const res = await authorize({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: redirect_uri(),
      scope: 'read admin',
      state: 's6',
    });
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('error_description')).toMatch(/admin scope is granted only to client_credentials/);
  });

  it('a stale interaction link shows a clean "expired" page', async () => {
    const res = await fetch(`${auth.url}/interaction/does-not-exist`);
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain('Sign-in session expired');
  });
});
