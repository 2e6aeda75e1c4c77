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
