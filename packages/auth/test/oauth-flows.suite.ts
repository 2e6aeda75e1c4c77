/**
 * The OAuth flows, written once and run against each storage combination: embedded
 * (PGlite, artefacts in the database) and production (PostgreSQL + Redis).
 * openid-client is the independent client; login and consent happen in headless Chromium.
 */
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import * as client from 'openid-client';
import { decodeJwt } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { CONSOLE_CLIENT_ID } from '@skiptrace/contracts';
import type { Database } from '@skiptrace/storage';
import type { KeyValueStore } from '@skiptrace/kv';
import { createBearerAuth } from '@skiptrace/bearer';
import { authorizeInBrowser, launchBrowser, signIn } from './browser.ts';
import { startAuth, type RunningAuth } from './harness.ts';

export interface Backend {
  db: Database;
  kv: KeyValueStore;
  /** A key-value store of the same kind with none of kv's data: Redis restarted empty. */
  emptyKv(): KeyValueStore;
  cleanup(): Promise<void>;
}

export function describeOAuthFlows(name: string, backend: () => Promise<Backend>): void {
  describe(`OAuth flows on ${name}`, () => {
    let env: Backend;
    let auth: RunningAuth;
    let browser: Browser;
    let config: client.Configuration;
    let clientId: string;
    let clientSecret: string;
    const user = { email: 'owner@example.com', password: 'correct horse battery' };
    let userId: string;
    let accountId: string;

    const discover = () =>
      client.discovery(new URL(auth.url), clientId, clientSecret, client.ClientSecretPost(clientSecret), {
        execute: [client.allowInsecureRequests],
      });

    /** Runs the browser part; returns the authorization code and its PKCE verifier. */
    async function authorize(scope: string) {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: `${auth.url}/callback`,
        scope,
        state,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      return { callback: await authorizeInBrowser(browser, url, user), verifier, state };
    }

    /** Runs the browser part and the code exchange; returns the token response. */
    async function codeFlow(scope = 'read write') {
      const { callback, verifier, state } = await authorize(scope);
      return client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    }

    /** The same token request sent `n` times at once, as raw HTTP (no client-side retries). */
    async function burst(n: number, params: Record<string, string>) {
      const body = new URLSearchParams({ ...params, client_id: clientId, client_secret: clientSecret });
      return Promise.all(
        Array.from({ length: n }, async () => {
          const res = await fetch(`${auth.url}/oauth/token`, { method: 'POST', body });
          return { status: res.status, body: (await res.json()) as Record<string, string> };
        }),
      );
    }

    beforeAll(async () => {
      env = await backend();
      await env.db.migrate();
      browser = await launchBrowser();
      auth = await startAuth(env.db, env.kv);
      const created = await auth.service.accounts.createUser(user);
      userId = created.id;
      accountId = created.accountId;
      const registered = await auth.service.accounts.createClient({
        name: 'Lead CRM',
        accountId,
        grantTypes: ['authorization_code', 'refresh_token'],
        redirectUris: [`${auth.url}/callback`],
        scopes: 'read write',
      });
      clientId = registered.client.clientId;
      clientSecret = registered.clientSecret!;
      config = await discover();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await auth?.close();
      await env?.cleanup();
    });

    it('authorization_code with PKCE: sign-in and consent in a browser, JWT + refresh token', async () => {
      const tokens = await codeFlow();
      expect(tokens.token_type).toBe('bearer');
      expect(tokens.expires_in).toBe(3600);
      expect(typeof tokens.refresh_token).toBe('string');
      expect(decodeJwt(tokens.access_token)).toMatchObject({
        sub: userId,
        account_id: accountId,
        // The user of a new account is its owner (docs/oauth.md, roles).
        role: 'owner',
        client_id: clientId,
        scope: 'read write',
        aud: 'urn:skiptrace:api',
      });
      const bearer = createBearerAuth({
        issuer: auth.url,
        audience: 'urn:skiptrace:api',
        jwks: () => auth.service.jwks(),
      });
      await expect(bearer.verify(tokens.access_token)).resolves.toMatchObject({ accountId, subject: userId });
    });

    it('refresh rotates the token; reusing a rotated one is invalid_grant and revokes the grant', async () => {
      const first = await codeFlow('read');
      const second = await client.refreshTokenGrant(config, first.refresh_token!);
      expect(second.expires_in).toBe(3600);
      expect(second.refresh_token).toBeDefined();
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(decodeJwt(second.access_token)).toMatchObject({ scope: 'read', sub: userId });
      await expect(client.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      // Reuse detection revoked the whole grant: the newest refresh token is dead too.
      await expect(client.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    });

    it.each([6, 20])(
      'one authorization code redeemed %i times at once: exactly one token response, the grant revoked',
      async (n) => {
        const { callback, verifier } = await authorize('read');
        const answers = await burst(n, {
          grant_type: 'authorization_code',
          code: callback.searchParams.get('code')!,
          redirect_uri: `${auth.url}/callback`,
          code_verifier: verifier,
        });
        const won = answers.filter((a) => a.status === 200);
        expect(won).toHaveLength(1);
        for (const lost of answers.filter((a) => a.status !== 200))
          expect(lost).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
        // The reuse revoked the grant, as a sequential reuse does: the winner's refresh token is dead.
        await expect(client.refreshTokenGrant(config, won[0]!.body.refresh_token!)).rejects.toMatchObject({
          error: 'invalid_grant',
        });
      },
    );

    it.each([6, 20])(
      'one refresh token redeemed %i times at once: exactly one token response, the grant revoked',
      async (n) => {
        const first = await codeFlow('read');
        const answers = await burst(n, { grant_type: 'refresh_token', refresh_token: first.refresh_token! });
        const won = answers.filter((a) => a.status === 200);
        expect(won).toHaveLength(1);
        for (const lost of answers.filter((a) => a.status !== 200))
          expect(lost).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
        await expect(client.refreshTokenGrant(config, won[0]!.body.refresh_token!)).rejects.toMatchObject({
          error: 'invalid_grant',
        });
      },
    );

    it('introspection and revocation of a refresh token', async () => {
      const tokens = await codeFlow('read');
      const active = await client.tokenIntrospection(config, tokens.refresh_token!);
      expect(active).toMatchObject({ active: true, client_id: clientId, sub: userId, scope: 'read' });
      await client.tokenRevocation(config, tokens.refresh_token!);
      expect(await client.tokenIntrospection(config, tokens.refresh_token!)).toEqual({ active: false });
      await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    });

    it("another client can neither introspect nor revoke this client's refresh token", async () => {
      const tokens = await codeFlow('read');
      const other = await auth.service.accounts.createClient({ name: 'Other tenant', scopes: 'read' });
      const otherConfig = await client.discovery(
        new URL(auth.url),
        other.client.clientId,
        other.clientSecret!,
        client.ClientSecretPost(other.clientSecret!),
        { execute: [client.allowInsecureRequests] },
      );
      expect(await client.tokenIntrospection(otherConfig, tokens.refresh_token!)).toEqual({ active: false });
      await expect(client.tokenRevocation(otherConfig, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_request',
      });
      expect(await client.tokenIntrospection(config, tokens.refresh_token!)).toMatchObject({ active: true });
    });

    describe('the first-party console signs in without a consent page; a third-party app still asks', () => {
      /** An authorization request of the console's public client (PKCE, no secret), as the console sends it. */
      async function consoleRequest() {
        const verifier = client.randomPKCECodeVerifier();
        const url = new URL(`${auth.url}/oauth/authorize`);
        url.search = new URLSearchParams({
          client_id: CONSOLE_CLIENT_ID,
          response_type: 'code',
          redirect_uri: `${auth.url}/callback`,
          scope: 'read write admin',
          state: client.randomState(),
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        }).toString();
        return { url, verifier };
      }

      /** Every page the auth server showed that holds a consent form. */
      const consentPages = (page: Page) => {
        const seen: string[] = [];
        page.on('response', (res) => {
          if (!/\/interaction\/[^/]+$/.test(new URL(res.url()).pathname)) return;
          void res.text().then(
            (html) => html.includes('/consent"') && seen.push(res.url()),
            () => undefined,
          );
        });
        return seen;
      };

      async function redeem(callback: URL, verifier: string) {
        const res = await fetch(`${auth.url}/oauth/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            client_id: CONSOLE_CLIENT_ID,
            code: callback.searchParams.get('code')!,
            redirect_uri: `${auth.url}/callback`,
            code_verifier: verifier,
          }),
        });
        expect(res.status).toBe(200);
        return (await res.json()) as { access_token: string; refresh_token?: string };
      }

      it('console: sign-in goes straight to the callback, again silently; a third-party app in the same session gets the consent page', async () => {
        await auth.service.ensureConsoleClient({ consoleUrl: auth.url });
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          const consents = consentPages(page);
          const first = await consoleRequest();
          await page.goto(first.url.href);
          await signIn(page, user.email, user.password);
          await page.waitForURL(/\/callback\?/);
          const tokens = await redeem(new URL(page.url()), first.verifier);
          expect(decodeJwt(tokens.access_token)).toMatchObject({
            sub: userId,
            account_id: accountId,
            client_id: CONSOLE_CLIENT_ID,
            scope: 'read write admin',
          });
          expect(tokens.refresh_token).toBeTruthy();

          // A reload of the console: the session's grant, no sign-in page, no consent page.
          const again = await consoleRequest();
          await page.goto(again.url.href);
          await page.waitForURL(/\/callback\?/);
          expect(decodeJwt((await redeem(new URL(page.url()), again.verifier)).access_token)).toMatchObject({
            scope: 'read write admin',
          });
          expect(consents).toEqual([]);

          // The same signed-in user authorising a third-party app: its consent page, whatever the console got.
          const verifier = client.randomPKCECodeVerifier();
          const thirdParty = client.buildAuthorizationUrl(config, {
            redirect_uri: `${auth.url}/callback`,
            scope: 'read write',
            state: client.randomState(),
            code_challenge: await client.calculatePKCECodeChallenge(verifier),
            code_challenge_method: 'S256',
          });
          await page.goto(thirdParty.href);
          await page.getByRole('button', { name: 'Allow' }).waitFor();
          expect(await page.getByRole('heading', { name: 'Authorize Lead CRM' }).isVisible()).toBe(true);
          expect(page.url()).not.toContain('/callback');
        } finally {
          await context.close();
        }
      });
    });

    it('"Deny" ends in access_denied at the client, with the state', async () => {
      const state = client.randomState();
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: `${auth.url}/callback`,
        scope: 'read',
        state,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const callback = await authorizeInBrowser(browser, url, user, 'Deny');
      expect(callback.searchParams.get('error')).toBe('access_denied');
      expect(callback.searchParams.get('state')).toBe(state);
      expect(callback.searchParams.get('code')).toBeNull();
    });

    it('state survives a restart of the auth service: an earlier refresh token still works', async () => {
      const tokens = await codeFlow('read');
      const port = Number(new URL(auth.url).port);
      await auth.close();
      auth = await startAuth(env.db, env.kv, {}, port);
      config = await discover();
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(decodeJwt(refreshed.access_token)).toMatchObject({ sub: userId, account_id: accountId });
    });

    it('grants are durable: a refresh token issued before Redis lost its data still refreshes (#22 defect 6)', async () => {
      const tokens = await codeFlow('read write');
      const port = Number(new URL(auth.url).port);
      await auth.close();
      // Redis restarted without its data: the same database, a key-value store holding nothing.
      auth = await startAuth(env.db, env.emptyKv(), {}, port);
      config = await discover();
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(decodeJwt(refreshed.access_token)).toMatchObject({ sub: userId, account_id: accountId });
      expect(refreshed.refresh_token).toBeTruthy();
      // Rotation still holds across the loss: the pre-restart token was consumed.
      await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    });
  });
}
