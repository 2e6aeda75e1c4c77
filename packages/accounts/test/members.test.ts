import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPgliteDatabase, type Database } from '@skiptrace/storage';
import type { Request, Response } from 'express';
import type { MemberError } from '../src/index.ts';
import {
  createAccounts,
  createMemberCheck,
  createMembers,
  type Accounts,
  type Members,
  type User,
} from '../src/index.ts';

let db: Database;
let accounts: Accounts;
let members: Members;
let owner: User;
let danaPassword = '';
const OWNER = { role: 'owner' as const, userId: '' };
const ADMIN = { role: 'admin' as const };

beforeAll(async () => {
  db = createPgliteDatabase();
  await db.migrate();
  accounts = createAccounts(db);
  members = createMembers(db);
  owner = await accounts.createUser({ email: 'owner@acme.test', password: 'owner-password' });
  OWNER.userId = owner.id;
});
afterAll(() => db.close());

const refused = (reason: MemberError['reason']) => expect.objectContaining({ name: 'MemberError', reason });

describe('members', () => {
  it('makes the first user of a new account its owner, and a user added to an account a member', async () => {
    expect(owner.role).toBe('owner');
    const added = await accounts.createUser({
      email: 'added@acme.test',
      password: 'password1',
      accountId: owner.accountId,
    });
    expect(added.role).toBe('member');
    expect((await accounts.findUser(added.id))?.role).toBe('member');
    await members.remove(owner.accountId, added.id, OWNER);
  });

  it('invites with a one-time link that creates the member with the role, once', async () => {
    const issued = await members.invite(owner.accountId, { email: 'Dana@Acme.test', role: 'member' }, OWNER);
    expect(issued.member).toMatchObject({ email: 'dana@acme.test', role: 'member', status: 'invited' });
    expect(issued.token).toMatch(/^[\w-]{43}$/);
    expect((await members.list(owner.accountId)).map((m) => [m.email, m.status])).toEqual([
      ['owner@acme.test', 'active'],
      ['dana@acme.test', 'invited'],
    ]);
    expect(await members.findLink('password_reset', issued.token)).toBeUndefined();
    expect(await members.findLink('invitation', issued.token)).toMatchObject({ email: 'dana@acme.test' });
    const [first, second] = await Promise.all([
      members.redeem('invitation', issued.token, 'dana-password'),
      members.redeem('invitation', issued.token, 'other-password'),
    ]);
    const user = first ?? second;
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(user).toMatchObject({ email: 'dana@acme.test', role: 'member', accountId: owner.accountId });
    // Exactly one redemption won; its password is the one set.
    danaPassword = first ? 'dana-password' : 'other-password';
    expect(await accounts.verifyUser('dana@acme.test', danaPassword)).toBeDefined();
    expect(await members.findLink('invitation', issued.token)).toBeUndefined();
    await expect(members.invite(owner.accountId, { email: 'dana@acme.test', role: 'viewer' }, OWNER)).rejects.toEqual(
      refused('conflict'),
    );
  });

  it('lets only an owner give, change, remove or reset an owner, and keeps one owner', async () => {
    await expect(members.invite(owner.accountId, { email: 'o2@acme.test', role: 'owner' }, ADMIN)).rejects.toEqual(
      refused('role'),
    );
    await expect(
      members.invite(owner.accountId, { email: 'x@acme.test', role: 'viewer' }, { role: 'member' }),
    ).rejects.toEqual(refused('role'));
    await expect(members.changeRole(owner.accountId, owner.id, 'admin', ADMIN)).rejects.toEqual(refused('role'));
    await expect(members.remove(owner.accountId, owner.id, ADMIN)).rejects.toEqual(refused('role'));
    await expect(members.issuePasswordReset(owner.accountId, owner.id, ADMIN)).rejects.toEqual(refused('role'));
    await expect(members.changeRole(owner.accountId, owner.id, 'admin', OWNER)).rejects.toEqual(refused('conflict'));
    await expect(members.remove(owner.accountId, owner.id, OWNER)).rejects.toEqual(refused('conflict'));
    await expect(members.changeRole(owner.accountId, 'usr_nobody', 'admin', OWNER)).rejects.toEqual(
      refused('not_found'),
    );
    const dana = (await accounts.findUserByEmail('dana@acme.test'))!;
    expect((await members.changeRole(owner.accountId, dana.id, 'admin', ADMIN)).member.role).toBe('admin');
    expect((await members.changeRole(owner.accountId, dana.id, 'viewer', ADMIN)).from).toBe('admin');
    // Another account's member is not found.
    const other = await accounts.createUser({ email: 'else@other.test', password: 'password1' });
    await expect(members.changeRole(owner.accountId, other.id, 'viewer', OWNER)).rejects.toEqual(refused('not_found'));
  });

  it('resets a password with a one-time link and ends the sign-ins then; removing ends them too', async () => {
    const dana = (await accounts.findUserByEmail('dana@acme.test'))!;
    const reset = await members.issuePasswordReset(owner.accountId, dana.id, ADMIN);
    expect(await accounts.verifyUser('dana@acme.test', danaPassword)).toBeDefined();
    expect(await members.redeem('password_reset', reset.token, 'dana-new-password')).toMatchObject({ id: dana.id });
    expect(await accounts.verifyUser('dana@acme.test', danaPassword)).toBeUndefined();
    expect(await accounts.verifyUser('dana@acme.test', 'dana-new-password')).toBeDefined();
    // Sign-ins before the reset are void (the OAuth server's findAccount compares auth times).
    expect((await accounts.findUser(dana.id))?.signedOutAt).toBeInstanceOf(Date);
    expect((await accounts.findUser(owner.id))?.signedOutAt).toBeUndefined();
    expect(await members.redeem('password_reset', reset.token, 'again-password')).toBeUndefined();

    const invited = await members.invite(owner.accountId, { email: 'eve@acme.test', role: 'viewer' }, ADMIN);
    await members.remove(owner.accountId, invited.member.id, ADMIN);
    expect(await members.redeem('invitation', invited.token, 'eve-password')).toBeUndefined();
    await members.remove(owner.accountId, dana.id, ADMIN);
    expect(await accounts.findUser(dana.id)).toBeUndefined();
  });

  it('refuses an expired link', async () => {
    const issued = await members.invite(owner.accountId, { email: 'late@acme.test', role: 'member' }, OWNER);
    await db.query(`UPDATE member_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      issued.member.id,
    ]);
    expect(await members.findLink('invitation', issued.token)).toBeUndefined();
    expect(await members.redeem('invitation', issued.token, 'late-password')).toBeUndefined();
  });
});

describe('the member check', () => {
  const run = async (check: ReturnType<typeof createMemberCheck>, auth: Request['auth']) => {
    const req = { auth: auth && { ...auth } } as Request;
    const err = await new Promise<unknown>((resolve) => check(req, {} as Response, resolve));
    return { err, auth: req.auth };
  };

  it("lowers a token's role to the user's current one, refuses a removed user, passes API clients", async () => {
    const check = createMemberCheck(members, { ttlMs: 0 });
    const user = await accounts.createUser({
      email: 'vic@acme.test',
      password: 'password1',
      accountId: owner.accountId,
      role: 'admin',
    });
    const token = {
      accountId: owner.accountId,
      clientId: 'skiptrace-console',
      subject: user.id,
      scopes: ['read'],
      role: 'admin' as const,
    };
    expect((await run(check, token)).auth).toMatchObject({ role: 'admin', email: 'vic@acme.test' });
    await members.changeRole(owner.accountId, user.id, 'viewer', OWNER);
    expect((await run(check, token)).auth?.role).toBe('viewer');
    await members.changeRole(owner.accountId, user.id, 'owner', OWNER);
    expect((await run(check, token)).auth?.role).toBe('admin');
    await members.changeRole(owner.accountId, user.id, 'member', OWNER);
    await members.remove(owner.accountId, user.id, OWNER);
    expect((await run(check, token)).err).toMatchObject({ kind: 'unauthorized' });
    const client = { accountId: owner.accountId, clientId: 'cli_1', subject: 'cli_1', scopes: ['read'] };
    expect(await run(check, client)).toEqual({ err: undefined, auth: client });
  });

  it('trusts a cached role for its time, unless the user is forgotten (as the members API does on a change)', async () => {
    const check = createMemberCheck(members, { ttlMs: 60_000 });
    const user = await accounts.createUser({
      email: 'wes@acme.test',
      password: 'password1',
      accountId: owner.accountId,
      role: 'member',
    });
    const token = {
      accountId: owner.accountId,
      clientId: 'skiptrace-console',
      subject: user.id,
      scopes: ['read', 'write'],
      role: 'member' as const,
    };
    expect((await run(check, token)).auth?.role).toBe('member');
    await members.changeRole(owner.accountId, user.id, 'viewer', OWNER);
    expect((await run(check, token)).auth?.role).toBe('member');
    check.forget(user.id);
    expect((await run(check, token)).auth?.role).toBe('viewer');
  });
});
