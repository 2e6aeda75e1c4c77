/**
 * A member's one-time links on the sign-in service (#28): the invitation page sets the
 * password and creates the member with the invited role, once; the reset page sets a new
 * one; a used, unknown or malformed link is a page saying so, never a 500; the form needs
 * its CSRF token; the use is in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createMembers, type Members, type User } from '@skiptrace/accounts';
import { createAuditLog } from '@skiptrace/audit';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { createDatabase, type Database } from '@skiptrace/storage';
import { authorizeOverHttp } from '@skiptrace/testing';
import { decodeJwt } from 'jose';
import { startAuth, type RunningAuth } from './harness.ts';

let db: Database;
let auth: RunningAuth;
let members: Members;
let owner: User;

beforeAll(async () => {
  db = createDatabase({});
  await db.migrate();
  auth = await startAuth(db, createMemoryKeyValue());
  members = createMembers(db);
  owner = await auth.service.accounts.createUser({ email: 'owner@links.test', password: 'owner-password' });
}, 60_000);
afterAll(async () => {
  await auth?.close();
  await db?.close();
});

/** Opens the link's page: its status, body, CSRF cookie and form field. */
async function open(path: string) {
  const res = await fetch(`${auth.url}${path}`);
  const html = await res.text();
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return { status: res.status, html, cookie, csrf, headers: res.headers };
}

async function submit(path: string, form: Record<string, string>, cookie: string) {
  const res = await fetch(`${auth.url}${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: res.status, html: await res.text() };
}

describe('member links', () => {
  it('joins with an invitation once: password set, member created with the role, audited', async () => {
    const issued = await members.invite(
      owner.accountId,
      { email: 'new@links.test', role: 'member' },
      { role: 'owner' },
    );
    const path = `/interaction/invitation/${issued.token}`;
    const page = await open(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.html).toContain('new@links.test');
    expect(page.html).toContain('<strong>member</strong>');

    expect(
      (await submit(path, { csrf: 'wrong', password: 'p4ssword!', confirm: 'p4ssword!' }, page.cookie)).status,
    ).toBe(403);
    const differ = await submit(path, { csrf: page.csrf, password: 'p4ssword!', confirm: 'other!!!!' }, page.cookie);
    expect(differ.status).toBe(400);
    expect(differ.html).toContain('The two passwords differ.');
    expect((await submit(path, { csrf: page.csrf, password: 'short', confirm: 'short' }, page.cookie)).status).toBe(
      400,
    );

    const done = await submit(path, { csrf: page.csrf, password: 'p4ssword!', confirm: 'p4ssword!' }, page.cookie);
    expect(done.status).toBe(200);
    expect(done.html).toContain('Continue to the console');
    const user = await auth.service.accounts.verifyUser('new@links.test', 'p4ssword!');
    expect(user).toMatchObject({ accountId: owner.accountId, role: 'member' });

    expect(
      (await submit(path, { csrf: page.csrf, password: 'again123', confirm: 'again123' }, page.cookie)).status,
    ).toBe(404);
    expect((await open(path)).html).toContain('Link not valid');
    const [entry] = await createAuditLog(db).list(owner.accountId, { limit: 1, action: 'member.invitation_accepted' });
    expect(entry).toMatchObject({
      actor: { type: 'user', id: user!.id, email: 'new@links.test' },
      target: { type: 'member', id: user!.id },
      source_address: expect.stringMatching(/127\.0\.0\.1/),
    });
  });

  it('sets a new password with a reset link', async () => {
    const user = (await auth.service.accounts.findUserByEmail('new@links.test'))!;
    const issued = await members.issuePasswordReset(owner.accountId, user.id, { role: 'admin' });
    const path = `/interaction/reset/${issued.token}`;
    const page = await open(path);
    expect(page.html).toContain('Set a new password');
    expect(
      (await submit(path, { csrf: page.csrf, password: 'n3w-password', confirm: 'n3w-password' }, page.cookie)).status,
    ).toBe(200);
    expect(await auth.service.accounts.verifyUser('new@links.test', 'n3w-password')).toBeDefined();
    expect(await auth.service.accounts.verifyUser('new@links.test', 'p4ssword!')).toBeUndefined();
    // A reset token is no invitation.
    expect((await open(`/interaction/invitation/${issued.token}`)).status).toBe(404);
  });

  it.each(['/interaction/invitation/nope', `/interaction/reset/${'x'.repeat(43)}`, '/interaction/invitation/%E0%A4%A'])(
    'answers %s with a page, never a 500',
    async (path) => {
      const res = await fetch(`${auth.url}${path}`);
      expect([400, 404]).toContain(res.status);
      await res.body?.cancel();
      const post = await fetch(`${auth.url}${path}`, { method: 'POST', body: new URLSearchParams({ password: 'x' }) });
      expect([400, 404]).toContain(post.status);
      await post.body?.cancel();
    },
  );
});

describe("a member's token", () => {
  let client: { id: string; secret: string };
  const user = { email: 'tok@links.test', password: 'tok-password' };

  beforeAll(async () => {
    const c = await auth.service.accounts.createClient({
      name: 'Team app',
      accountId: owner.accountId,
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: [`${auth.url}/callback`],
      scopes: 'read write',
    });
    client = { id: c.client.clientId, secret: c.clientSecret! };
    await auth.service.accounts.createUser({ ...user, accountId: owner.accountId, role: 'member' });
  });

  const token = async (params: Record<string, string>) => {
    const res = await fetch(`${auth.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ ...params, client_id: client.id, client_secret: client.secret }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };
  async function signInTokens() {
    const url = new URL(`${auth.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: client.id,
      redirect_uri: `${auth.url}/callback`,
      scope: 'read write',
      state: 'st',
    }))
      url.searchParams.set(k, v);
    const back = await authorizeOverHttp(url, user);
    const code = back.searchParams.get('code')!;
    const res = await token({ grant_type: 'authorization_code', code, redirect_uri: `${auth.url}/callback` });
    expect(res.status).toBe(200);
    return res.body;
  }

  it('carries the role, a changed role with the next refresh, and no refresh after a reset or a removal', async () => {
    const first = await signInTokens();
    expect(decodeJwt(first.access_token!)).toMatchObject({ account_id: owner.accountId, role: 'member' });
    const id = (await auth.service.accounts.findUserByEmail(user.email))!.id;
    await members.changeRole(owner.accountId, id, 'viewer', { role: 'owner' });
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token! });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.access_token!)).toMatchObject({ role: 'viewer' });

    // A reset used: the sign-in before it is over (its refresh token finds no account).
    const reset = await members.issuePasswordReset(owner.accountId, id, { role: 'admin' });
    // Auth times are whole seconds: the reset lands in a later second than the sign-in.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    user.password = 'tok-new-password';
    await members.redeem('password_reset', reset.token, user.password);
    const afterReset = await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token! });
    expect(afterReset).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    // A new sign-in works; removing the member ends it.
    const again = await signInTokens();
    expect((await token({ grant_type: 'refresh_token', refresh_token: again.refresh_token! })).status).toBe(200);
    const latest = await signInTokens();
    await members.remove(owner.accountId, id, { role: 'owner' });
    const afterRemoval = await token({ grant_type: 'refresh_token', refresh_token: latest.refresh_token! });
    expect(afterRemoval).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  }, 60_000);
});
