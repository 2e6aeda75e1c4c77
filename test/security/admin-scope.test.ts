/**
 * Issue #22 defect 2: administering the account's API clients and webhook endpoints needs
 * the `admin` scope, which only the account's own credentials get (a client_credentials
 * client created with it, a user signed in to the web console) and a third-party app never
 * does, not even through its user's consent. Against the one-process system: real tokens
 * from the OAuth server, verified by the gateway's bearer middleware.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as oauth from 'oauth4webapi';
import { CONSOLE_CLIENT_ID, ERROR_CODES } from '@skiptrace/contracts';
import { createSystem, type System } from '@skiptrace/standalone';
import { authorizeOverHttp, clientCredentialsToken, freePort, type ClientCredentials } from '@skiptrace/testing';

const ADMIN_TOKEN = 'registration-token-0123456789';

/** The claims of a JWT access token (verified by the gateway in every call below). */
const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as object;

let system: System;
let base: string;
let dataDir: string;
let demo: ClientCredentials & { email: string; password: string; accountId: string };
let writeToken: string;
let adminToken: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiptrace-admin-scope-'));
  const port = await freePort();
  system = await createSystem({
    PORT: String(port),
    SKIPTRACE_DATA_DIR: dataDir,
    SKIPTRACE_DEMO_ROWS: '0',
    SKIPTRACE_ADMIN_TOKEN: ADMIN_TOKEN,
    SKIPTRACE_WEBHOOK_LOOPBACK_ONLY: 'true',
    LOG_LEVEL: 'silent',
  });
  base = await system.start();
  demo = JSON.parse(await readFile(join(dataDir, 'demo-credentials.json'), 'utf8'));
  writeToken = await clientCredentialsToken(base, demo, 'read write');
  adminToken = await clientCredentialsToken(base, demo, 'read write admin');
}, 60_000);
afterAll(async () => {
  await system?.stop('test done');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const api = (token: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

const tokenRequest = (form: Record<string, string>) =>
  fetch(`${base}/oauth/token`, { method: 'POST', body: new URLSearchParams(form) });

/** 403 with the documented Error body and the RFC 6750 challenge naming the scope. */
async function expectInsufficientScope(res: Response): Promise<void> {
  expect(res.status).toBe(403);
  expect(await res.json()).toEqual({
    error: ERROR_CODES.insufficient_scope.code,
    message: 'this operation needs the "admin" scope',
  });
  expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="admin"');
}

describe('API client administration', () => {
  it('refuses a write token on list, create, rotate and delete, and changes nothing', async () => {
    const victim = (await (await api(adminToken, 'POST', '/clients', { name: 'victim' })).json()) as {
      client_id: string;
      client_secret: string;
    };
    await expectInsufficientScope(await api(writeToken, 'GET', '/clients'));
    await expectInsufficientScope(await api(writeToken, 'POST', '/clients', { name: 'intruder', scopes: ['write'] }));
    await expectInsufficientScope(await api(writeToken, 'POST', `/clients/${victim.client_id}/rotate-secret`));
    await expectInsufficientScope(await api(writeToken, 'DELETE', `/clients/${victim.client_id}`));
    // The victim's secret still gets tokens; nobody else was created.
    const victimToken = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: victim.client_id,
      client_secret: victim.client_secret,
      scope: 'read',
    });
    expect(victimToken.status).toBe(200);
    const names = ((await (await api(adminToken, 'GET', '/clients')).json()) as { data: { name: string }[] }).data;
    expect(names.map((c) => c.name)).not.toContain('intruder');
  });

  it('lets an admin token list, create, rotate and delete', async () => {
    const listed = await api(adminToken, 'GET', '/clients');
    expect(listed.status).toBe(200);
    const created = await api(adminToken, 'POST', '/clients', { name: 'nightly', scopes: ['read', 'write'] });
    expect(created.status).toBe(201);
    const client = (await created.json()) as { client_id: string; client_secret: string };
    const rotated = await api(adminToken, 'POST', `/clients/${client.client_id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const stale = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope: 'read',
    });
    expect(stale.status).toBe(401);
    expect((await api(adminToken, 'DELETE', `/clients/${client.client_id}`)).status).toBe(204);
  });

  it('gives admin only to a client created with it', async () => {
    const created = await api(adminToken, 'POST', '/clients', { name: 'writer', scopes: ['read', 'write'] });
    const writer = (await created.json()) as { client_id: string; client_secret: string };
    const res = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: writer.client_id,
      client_secret: writer.client_secret,
      scope: 'read write admin',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_scope' });
  });
});

describe('webhook endpoint administration', () => {
  it('refuses a write token on create, update, rotate and delete; an admin token may', async () => {
    const subscription = { url: 'http://127.0.0.1:9/hook', events: ['skiptrace.completed'] };
    await expectInsufficientScope(await api(writeToken, 'POST', '/webhooks/endpoints', subscription));
    const created = await api(adminToken, 'POST', '/webhooks/endpoints', subscription);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const path = `/webhooks/endpoints/${id}`;
    await expectInsufficientScope(await api(writeToken, 'PATCH', path, { url: 'http://127.0.0.1:9/other' }));
    await expectInsufficientScope(await api(writeToken, 'POST', `${path}/rotate-secret`));
    await expectInsufficientScope(await api(writeToken, 'DELETE', path));
    // Reading stays `read`; the endpoint is unchanged.
    const read = await api(writeToken, 'GET', path);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ url: subscription.url });
    expect((await api(adminToken, 'POST', `${path}/rotate-secret`)).status).toBe(200);
    expect((await api(adminToken, 'DELETE', path)).status).toBe(204);
  });
});

describe('admin through a sign-in', () => {
  /** The authorization URL of a code flow with PKCE; returns it with its verifier. */
  async function authorization(clientId: string, redirectUri: string, scope: string) {
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(`${base}/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope,
      state: 'st',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    return { url, verifier };
  }

  it('a third-party app registered with admin never gets it through its user’s consent', async () => {
    const registered = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Third-party CRM',
        account_id: demo.accountId,
        grant_types: ['authorization_code', 'refresh_token'],
        redirect_uris: [`${base}/crm/callback`],
        scope: 'read write admin',
      }),
    });
    expect(registered.status).toBe(201);
    const app = (await registered.json()) as { client_id: string; client_secret: string };
    const redirectUri = `${base}/crm/callback`;

    // Asking for admin is refused before any sign-in, back at the app with its state.
    const asked = await authorization(app.client_id, redirectUri, 'read write admin');
    const refused = await fetch(asked.url, { redirect: 'manual' });
    const location = new URL(refused.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('state')).toBe('st');

    // The user consents to read and write: the token carries no admin, and the API refuses it.
    const { url, verifier } = await authorization(app.client_id, redirectUri, 'read write');
    const callback = await authorizeOverHttp(url, demo);
    const code = callback.searchParams.get('code');
    expect(code).toBeTruthy();
    const exchanged = await tokenRequest({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string; scope: string };
    expect(tokens.scope).toBe('read write');
    expect(claims(tokens.access_token)).toMatchObject({ account_id: demo.accountId, scope: 'read write' });
    await expectInsufficientScope(await api(tokens.access_token, 'GET', '/clients'));
    await expectInsufficientScope(await api(tokens.access_token, 'POST', '/clients', { name: 'backdoor' }));

    // Nor by refreshing with a wider scope, nor by client_credentials (it has no such grant).
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      scope: 'read write admin',
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_scope' });
    const direct = await tokenRequest({
      grant_type: 'client_credentials',
      scope: 'admin',
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
    expect(direct.status).toBe(400);
  });

  it('the web console signed in as the account’s user administers its clients', async () => {
    const redirectUri = `${system.config.auth.consoleUrl}/callback`;
    const { url, verifier } = await authorization(CONSOLE_CLIENT_ID, redirectUri, 'read write admin');
    const callback = await authorizeOverHttp(url, demo);
    const exchanged = await tokenRequest({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: CONSOLE_CLIENT_ID,
    });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; scope: string };
    expect(tokens.scope).toBe('read write admin');
    expect(claims(tokens.access_token)).toMatchObject({ account_id: demo.accountId });
    expect((await api(tokens.access_token, 'GET', '/clients')).status).toBe(200);
  });
});
