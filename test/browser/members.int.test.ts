/**
 * Members and roles in headless Chromium against the one-process system (#28 done-when):
 * the owner (the demo user) invites a member from the console and gets a one-time link;
 * the member opens it, sets a password, signs in, traces a property (within the member
 * role), is refused an admin page, and the owner sees all of it in the audit log — the
 * invitation, its acceptance, the member's sign-in and the refusal.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { commands, runCli } from '@skiptrace/cli';
import { demoQueryFor, generateContacts } from '@skiptrace/demo';
import { createSystem, type System } from '@skiptrace/standalone';
import { freePort } from '@skiptrace/testing';
import { launchBrowser } from '@skiptrace/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { signInToConsole } from './harness.ts';

const MEMBER = { email: 'dana@team.test', password: 'dana-has-a-long-password' };

let system: System;
let base: string;
let dataDir: string;
let browser: Browser;
let owner: Page;
let member: Page;
let link: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiptrace-members-'));
  const port = await freePort();
  system = await createSystem({
    PORT: String(port),
    SKIPTRACE_DATA_DIR: dataDir,
    SKIPTRACE_DEMO_ROWS: '50',
    LOG_LEVEL: 'silent',
  });
  base = await system.start();
  browser = await launchBrowser();
  owner = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
  member = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop('test done');
  await rm(dataDir, { recursive: true, force: true });
});

describe('members and roles in the console', () => {
  it('lets the owner invite a member and shows the one-time link', async () => {
    const demo = JSON.parse(await readFile(join(dataDir, 'demo-credentials.json'), 'utf8'));
    await owner.goto(`${base}/console/`);
    await signInToConsole(owner, base, demo.email, demo.password);
    await expect(owner.getByText('Role: owner').isVisible()).resolves.toBe(true);
    await owner.getByRole('link', { name: 'Members' }).click();
    await owner.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await owner.getByLabel('Email', { exact: true }).fill(MEMBER.email);
    await owner.getByLabel('Role', { exact: true }).selectOption('member');
    await owner.getByRole('button', { name: 'Invite' }).click();
    link = await owner.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(new RegExp(`^${base}/interaction/invitation/[\\w-]{43}$`));
    const row = owner.getByRole('row').filter({ hasText: MEMBER.email });
    await expect(row.getByText('invited').isVisible()).resolves.toBe(true);
  }, 60_000);

  it('lets the member join with the link and sign in', async () => {
    await member.goto(link);
    await member.getByRole('heading', { name: 'Join the team' }).waitFor();
    await member.getByLabel('Password (8 characters or more)').fill(MEMBER.password);
    await member.getByLabel('Password again').fill(MEMBER.password);
    await member.getByRole('button', { name: 'Set password and join' }).click();
    await member.getByRole('heading', { name: 'Password set' }).waitFor();
    await member.getByRole('link', { name: 'Continue to the console' }).click();
    await signInToConsole(member, base, MEMBER.email, MEMBER.password);
    await expect(member.getByText('Role: member').isVisible()).resolves.toBe(true);
    // A member's navigation has no admin pages.
    await expect(member.getByRole('link', { name: 'Members' }).count()).resolves.toBe(0);
    await expect(member.getByRole('link', { name: 'Audit log' }).count()).resolves.toBe(0);
    // The link worked once.
    const again = await member.context().request.get(link);
    expect(again.status()).toBe(404);
  }, 60_000);

  it('lets the member trace a property', async () => {
    const q = demoQueryFor([...generateContacts({ rows: 1, seed: 42 })][0]!);
    await member.getByRole('link', { name: 'Trace one property' }).click();
    await member.getByLabel('Street address', { exact: true }).fill(q.street_address);
    await member.getByLabel('City', { exact: true }).fill(q.city);
    await member.getByLabel('State', { exact: true }).fill(q.state);
    await member.getByLabel('ZIP code', { exact: true }).fill(q.zip_code);
    await member.getByRole('button', { name: 'Trace', exact: true }).click();
    await member.getByRole('article').first().waitFor();
  }, 60_000);

  it('refuses the member an admin action', async () => {
    await member.goto(`${base}/console/members`);
    const refusal = member.getByRole('alert').filter({ hasText: 'needs the admin role' });
    await refusal.waitFor();
    await expect(refusal.innerText()).resolves.toContain('you are member (error 1102)');
    await member.getByLabel('Email', { exact: true }).fill('mallory@team.test');
    await member.getByRole('button', { name: 'Invite' }).click();
    await member.getByRole('alert').filter({ hasText: 'you are member' }).nth(1).waitFor();
  }, 60_000);

  it('shows the owner all of it in the audit log', async () => {
    await owner.getByRole('link', { name: 'Audit log' }).click();
    await owner.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const rows = owner.getByRole('row');
    await rows.filter({ hasText: 'member.invited' }).first().waitFor();
    const lines = await rows.allInnerTexts();
    const find = (action: string, actor: string) => lines.find((l) => l.includes(action) && l.includes(actor));
    expect(find('member.invited', 'demo')).toContain(MEMBER.email);
    expect(find('member.invitation_accepted', MEMBER.email)).toBeDefined();
    expect(find('user.signed_in', MEMBER.email)).toContain('skiptrace-console');
    const denied = lines.filter((l) => l.includes('access.denied') && l.includes(MEMBER.email)).join('\n');
    expect(denied).toContain('route GET /api/v1/members');
    expect(denied).toContain('route POST /api/v1/members');
    expect(denied).toContain('error: insufficient_role');
    // Filtered to the member: only what they did.
    await owner.getByLabel('Actor').fill(MEMBER.email);
    await owner.getByRole('button', { name: 'Apply' }).click();
    const others = owner.locator('tbody tr').filter({ hasNotText: MEMBER.email });
    for (let tries = 0; (await others.count()) > 0 && tries < 100; tries++) await owner.waitForTimeout(100);
    await expect(others.count()).resolves.toBe(0);
    const mine = await owner.locator('tbody tr').allInnerTexts();
    expect(mine.length).toBeGreaterThanOrEqual(4);
    // The owner sees the member as active now.
    await owner.getByRole('link', { name: 'Members' }).click();
    const row = owner.getByRole('row').filter({ hasText: MEMBER.email });
    await row.getByText('active').waitFor();
    await expect(row.getByLabel(`Role of ${MEMBER.email}`).inputValue()).resolves.toBe('member');
  }, 60_000);

  it('manages members from the CLI through the API, as an admin API client', async () => {
    const demo = JSON.parse(await readFile(join(dataDir, 'demo-credentials.json'), 'utf8'));
    const secretFile = join(dataDir, 'client-secret');
    await writeFile(secretFile, `${demo.clientSecret}\n`);
    const auth = ['--api', base, '--client-id', demo.clientId, '--client-secret-file', secretFile];
    const stdout: string[] = [];
    const errors: string[] = [];
    const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
    const cli = (...argv: string[]) =>
      runCli(argv, commands, { stdout: process.stdout, stderr: { write: (t: string) => errors.push(t) }, env: {} });
    try {
      expect(await cli('members', 'list', ...auth)).toBe(0);
      const list = JSON.parse(stdout.at(-1)!) as { id: string; email: string; role: string }[];
      const dana = list.find((m) => m.email === MEMBER.email)!;
      expect(dana).toMatchObject({ role: 'member', status: 'active' });
      expect(await cli('members', 'role', dana.id, '--role', 'viewer', ...auth)).toBe(0);
      expect(JSON.parse(stdout.at(-1)!)).toMatchObject({ id: dana.id, role: 'viewer' });
      // The member is a viewer now: the trace they could do is refused at once (before the
      // password reset below, which ends their sign-in).
      await member.getByRole('link', { name: 'Trace one property' }).click();
      await member.getByLabel('Street address', { exact: true }).fill('1 Main St');
      await member.getByLabel('City', { exact: true }).fill('Austin');
      await member.getByLabel('State', { exact: true }).fill('TX');
      await member.getByLabel('ZIP code', { exact: true }).fill('78701');
      await member.getByRole('button', { name: 'Trace', exact: true }).click();
      await member.getByRole('alert').filter({ hasText: 'you are viewer (error 1102)' }).waitFor();
      expect(await cli('members', 'reset-password', dana.id, ...auth)).toBe(0);
      expect(JSON.parse(stdout.at(-1)!).link).toMatch(/\/interaction\/reset\/[\w-]{43}$/);
      // An API client with admin counts as an admin: no owners.
      expect(await cli('members', 'invite', '--email', 'boss@team.test', '--role', 'owner', ...auth)).toBe(1);
      expect(errors.at(-1)).toContain('only an owner may make, change, remove or reset an owner');
      expect(await cli('members', 'invite', '--email', 'sam@team.test', '--role', 'bogus', ...auth)).toBe(2);
      expect(await cli('members', 'invite', '--email', 'sam@team.test', ...auth)).toBe(0);
      const invited = JSON.parse(stdout.at(-1)!) as { member: { id: string }; link: string };
      expect(invited.link).toMatch(/\/interaction\/invitation\//);
      expect(await cli('members', 'remove', invited.member.id, ...auth)).toBe(0);
      expect(await cli('members', 'remove', invited.member.id, ...auth)).toBe(1);
    } finally {
      out.mockRestore();
    }
  }, 60_000);
});
