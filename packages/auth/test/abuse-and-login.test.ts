/**
 * Login page behaviour in a real browser (labels, generic error, no-store, CSRF), login
 * lockout with back-off, and token-endpoint rate limits, each answered 429 + Retry-After.
 */
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { createDatabase, type Database } from '@skiptrace/storage';
import { launchBrowser, signIn } from './browser.ts';
import { clientCredentialsBurst, startAuth, type RunningAuth } from './harness.ts';

let db: Database;
let auth: RunningAuth;
let browser: Browser;
let web: { id: string; secret: string };
const user = { email: 'locked@example.com', password: 'the right password' };

beforeAll(async () => {
  db = createDatabase({});
  await db.migrate();
  browser = await launchBrowser();
  auth = await startAuth(db, createMemoryKeyValue(), {
    lockoutThreshold: 3,
    lockoutBaseSeconds: 60,
    tokenRateLimit: 3,
    tokenIpRateLimit: 1000,
  });
  await auth.service.accounts.createUser(user);
  const c = await auth.service.accounts.createClient({
    name: 'Web app',
    grantTypes: ['authorization_code', 'client_credentials'],
    redirectUris: [`${auth.url}/callback`],
    scopes: 'read',
  });
  web = { id: c.client.clientId, secret: c.clientSecret! };
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await auth?.close();
  await db?.close();
});

async function loginPage(): Promise<Page> {
  const config = await client.discovery(new URL(auth.url), web.id, web.secret, client.ClientSecretPost(web.secret), {
    execute: [client.allowInsecureRequests],
  });
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: `${auth.url}/callback`,
    scope: 'read',
    state: 'st',
  });
  const page = await (await browser.newContext()).newPage();
  const res = await page.goto(url.href);
  expect(res?.headers()['cache-control']).toBe('no-store');
  return page;
}

const submitted = (page: Page) =>
  page.waitForResponse((r) => r.url().endsWith('/login') && r.request().method() === 'POST');

describe('login page', () => {
  it('a wrong password shows one generic error, without saying which field was wrong', async () => {
    const page = await loginPage();
    const response = submitted(page);
    await signIn(page, 'someone-else@example.com', 'whatever-password');
    expect((await response).status()).toBe(401);
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Invalid email or password.');
    expect(await page.getByLabel('Email').inputValue()).toBe('someone-else@example.com');
    await page.context().close();
  });

  it('a post without the CSRF token is refused', async () => {
    const page = await loginPage();
    const uid = new URL(page.url()).pathname.split('/').pop();
    const res = await page.context().request.post(`${auth.url}/interaction/${uid}/login`, {
      form: { email: user.email, password: user.password, csrf: 'forged' },
    });
    expect(res.status()).toBe(403);
    await page.context().close();
  });

  it('locks the email after 3 failures with 429 + Retry-After, even for the right password', async () => {
    const page = await loginPage();
    for (const expected of [401, 401]) {
      const response = submitted(page);
      await signIn(page, user.email, 'wrong password!');
      expect((await response).status()).toBe(expected);
    }
    const third = submitted(page);
    await signIn(page, user.email, 'wrong password!');
    const locked = await third;
    expect(locked.status()).toBe(429);
    expect(Number(locked.headers()['retry-after'])).toBeGreaterThan(50);
    const fourth = submitted(page);
    await signIn(page, user.email, user.password);
    expect((await fourth).status()).toBe(429);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Too many failed sign-ins/);
    await page.context().close();
  });
});

describe('token endpoint rate limit', () => {
  it('answers 429 rate_limited with Retry-After past the per-client limit', async () => {
    const call = () =>
      fetch(`${auth.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: web.id,
          client_secret: web.secret,
          scope: 'read',
        }),
      });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call()).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: 'rate_limited' });
  });

  it('wrong secrets are limited per client and address, and never eat the real client budget', async () => {
    // Behind a proxy, so each request can come from its own source address.
    const guarded = await startAuth(db, createMemoryKeyValue(), {
      tokenRateLimit: 3,
      clientAuthFailureLimit: 2,
      trustProxy: true,
    });
    try {
      const c = await guarded.service.accounts.createClient({ name: 'M2M', scopes: 'read' });
      const call = async (secret: string, from: string) => {
        const res = await fetch(`${guarded.url}/oauth/token`, {
          method: 'POST',
          headers: { 'x-forwarded-for': from },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: c.client.clientId,
            client_secret: secret,
          }),
        });
        return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
      };
      const attacker = [];
      for (let i = 0; i < 6; i++) attacker.push(await call('guessed-secret', '203.0.113.66'));
      expect(attacker.map((a) => a.status)).toEqual([401, 401, 429, 429, 429, 429]);
      expect(attacker[2]).toMatchObject({ body: { error: 'rate_limited' } });
      expect(Number(attacker[2]!.retryAfter)).toBeGreaterThan(0);
      // The guessing address stays refused even with the right secret …
      expect((await call(c.clientSecret!, '203.0.113.66')).status).toBe(429);
      // … while the real client, elsewhere, has its whole per-client budget.
      const real = [];
      for (let i = 0; i < 4; i++) real.push((await call(c.clientSecret!, '198.51.100.7')).status);
      expect(real).toEqual([200, 200, 200, 429]);
    } finally {
      await guarded.close();
    }
  });

  it('60 parallel wrong secrets compare at most the limit (reserved before the comparison)', async () => {
    // #22 defect 7: the count was read before and written after the comparison, so a burst
    // compared 35–60 secrets against a limit of 10. Each comparison answers 401, each
    // attempt refused before one answers 429.
    const guarded = await startAuth(db, createMemoryKeyValue(), { clientAuthFailureLimit: 10 });
    try {
      const c = await guarded.service.accounts.createClient({ name: 'Burst target', scopes: 'read' });
      const statuses = await clientCredentialsBurst(guarded.url, c.client.clientId, 'guessed-secret', 60);
      expect(statuses.filter((s) => s === 401)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(50);
    } finally {
      await guarded.close();
    }
  });

  it("a real client's parallel burst with its right secret is not limited", async () => {
    const guarded = await startAuth(db, createMemoryKeyValue(), { clientAuthFailureLimit: 2 });
    try {
      const c = await guarded.service.accounts.createClient({ name: 'Busy client', scopes: 'read' });
      const call = async () => {
        const res = await fetch(`${guarded.url}/oauth/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: c.client.clientId,
            client_secret: c.clientSecret!,
          }),
        });
        await res.body?.cancel();
        return res.status;
      };
      expect(await call()).toBe(200);
      expect(await Promise.all(Array.from({ length: 20 }, call))).toEqual(Array(20).fill(200));
    } finally {
      await guarded.close();
    }
  });

  it('limits per IP before authenticating the client', async () => {
    const strict = await startAuth(db, createMemoryKeyValue(), { tokenIpRateLimit: 1 });
    try {
      const call = () =>
        fetch(`${strict.url}/oauth/token`, {
          method: 'POST',
          body: new URLSearchParams({ grant_type: 'client_credentials' }),
        });
      expect((await call()).status).toBe(400);
      const limited = await call();
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await strict.close();
    }
  });
});
