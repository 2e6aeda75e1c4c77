/**
 * Issue #28 item 1: every CLI command run against a running system takes effect without a
 * restart, or refuses clearly — never a second writer. The one-process system runs on the
 * embedded store (PGlite under its data dir, locked by it: the CLI goes through its admin
 * API) and on PostgreSQL (the CLI writes to the database; the services hold no cache of
 * users, clients or contacts, so the next request sees the change). Each command is a
 * separate `node services/cli/src/main.ts` process, as an operator would run it.
 *
 * Commands (services/cli/src/commands): accounts create, users create, clients create,
 * import, import-properties, import-suppression, demo-data, quotas show, quotas set,
 * batch submit|status|list|download|cancel.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as oauth from 'oauth4webapi';
import { ERROR_CODES } from '@skiptrace/contracts';
import { demoQueryFor, generateContacts } from '@skiptrace/demo';
import { createSystem, type System } from '@skiptrace/standalone';
import {
  authorizeOverHttp,
  clientCredentialsToken,
  createTestDatabaseUrl,
  freePort,
  type TestDatabase,
} from '@skiptrace/testing';

const MAIN = fileURLToPath(new URL('../../services/cli/src/main.ts', import.meta.url));
const SEED = 77;
const TEST_MS = 300_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function spawnCli(env: NodeJS.ProcessEnv, cwd: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { env, cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

type Mode = 'embedded' | 'postgres';

describe.each<Mode>(['embedded', 'postgres'])('every CLI command against a running system (%s)', (mode) => {
  let system: System;
  let base: string;
  let dir: string;
  let testDb: TestDatabase | undefined;
  let cliEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `cli-running-${mode}-`));
    const env: NodeJS.ProcessEnv = {
      PORT: String(await freePort()),
      SKIPTRACE_DATA_DIR: join(dir, 'data'),
      SKIPTRACE_DEMO_ROWS: '0',
      LOG_LEVEL: 'silent',
    };
    if (mode === 'postgres') {
      testDb = await createTestDatabaseUrl('e2e_cli_running');
      env.DATABASE_URL = testDb.url;
    }
    system = await createSystem(env);
    base = await system.start();
    cliEnv = { ...process.env, SKIPTRACE_DATA_DIR: env.SKIPTRACE_DATA_DIR, SKIPTRACE_API: base };
    delete cliEnv.DATABASE_URL;
    if (testDb) cliEnv.DATABASE_URL = testDb.url;
  }, 120_000);

  afterAll(async () => {
    await system?.stop('test done');
    await testDb?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) => spawnCli(cliEnv, dir, args);
  const json = <T>(run: Run): T => {
    expect(run).toMatchObject({ code: 0 });
    return JSON.parse(run.stdout) as T;
  };
  const api = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${base}/api/v1${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
    });
  const trace = async (token: string, query: object) => {
    const res = await api(token, '/property/skiptrace', { method: 'POST', body: JSON.stringify(query) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it(
    'creates an account, a user who signs in, a client, imports contacts, properties and a DNC list, sets quotas, runs a batch — each seen at once',
    async () => {
      if (mode === 'embedded') {
        // The store is locked by the system; the endpoint file is the owner's only.
        const lock = JSON.parse(await readFile(join(dir, 'data', 'store.lock'), 'utf8')) as { pid: number };
        expect(lock.pid).toBe(process.pid);
        expect((await stat(join(dir, 'data', 'admin.json'))).mode & 0o777).toBe(0o600);
      }

      // accounts create
      const { account } = json<{ account: { id: string } }>(await cli('accounts', 'create', '--name', 'Data team'));

      // clients create: a server client and a sign-in client of the new account
      const created = json<{ client: { clientId: string }; clientSecret: string }>(
        await cli('clients', 'create', '--name', 'etl', '--account', account.id, '--scope', 'read write admin'),
      );
      const token = await clientCredentialsToken(
        base,
        { clientId: created.client.clientId, clientSecret: created.clientSecret },
        'read write admin',
      );
      const redirectUri = `${base}/team/callback`;
      const signIn = json<{ client: { clientId: string }; clientSecret: string }>(
        await cli(
          'clients',
          'create',
          '--name',
          'team app',
          '--account',
          account.id,
          '--grants',
          'authorization_code',
          '--redirect-uri',
          redirectUri,
          '--scopes',
          'read write',
        ),
      );

      // users create: the new user signs in at once (the password from the environment)
      const user = { email: `analyst-${mode}@example.com`, password: 'correct horse battery staple' };
      const made = json<{ user: { accountId: string } }>(
        await spawnCli({ ...cliEnv, SKIPTRACE_PASSWORD: user.password }, dir, [
          'users',
          'create',
          '--email',
          user.email,
          '--account',
          account.id,
        ]),
      );
      expect(made.user.accountId).toBe(account.id);
      const verifier = oauth.generateRandomCodeVerifier();
      const authorize = new URL(`${base}/oauth/authorize`);
      authorize.search = new URLSearchParams({
        client_id: signIn.client.clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'read write',
        state: 'st',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }).toString();
      const callback = await authorizeOverHttp(authorize, user);
      const exchanged = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: callback.searchParams.get('code')!,
          redirect_uri: redirectUri,
          code_verifier: verifier,
          client_id: signIn.client.clientId,
          client_secret: signIn.clientSecret,
        }),
      });
      expect(exchanged.status).toBe(200);

      // demo-data + import: the contacts match the next trace
      const contacts = join(dir, 'contacts.csv');
      expect((await cli('demo-data', '--rows', '30', '--seed', String(SEED), '--out', contacts)).code).toBe(0);
      const query = demoQueryFor([...generateContacts({ rows: 1, seed: SEED })][0]!);
      expect((await trace(token, query)).body.status).toBe('no_match');
      const imported = await cli('import', contacts, '--source', 'team');
      expect(imported).toMatchObject({ code: 0 });
      expect(imported.stdout).toMatch(/imported 30,/);
      const found = await trace(token, { ...query, first_name: undefined, last_name: undefined });
      expect(found.body.status).toBe('completed');
      const phone = (found.body.results as { phones: { number: string; dnc: boolean }[] }[])[0]!.phones[0]!;
      expect(phone.dnc).toBe(false);

      // import-suppression: the phone is flagged on the next trace
      const dnc = join(dir, 'dnc.txt');
      await writeFile(dnc, `${phone.number.slice(2)}\n`);
      const suppressed = await cli('import-suppression', '--kind', 'dnc', dnc);
      expect(suppressed).toMatchObject({ code: 0 });
      expect(suppressed.stdout).toMatch(/imported 1,/);
      const again = await trace(token, { ...query, first_name: undefined, last_name: undefined });
      const flagged = (again.body.results as { phones: { number: string; dnc: boolean }[] }[]).flatMap((r) => r.phones);
      expect(flagged.find((p) => p.number === phone.number)?.dnc).toBe(true);

      // import-properties: the owner of record comes with the next trace of the parcel
      const roll = join(dir, 'roll.csv');
      await writeFile(
        roll,
        'street_address,city,state,zip_code,owner_name,mailing_street_address,mailing_city,mailing_state,mailing_zip_code\n' +
          `"${query.street_address}","${query.city}",${query.state},${query.zip_code},"ZEPHYR HOLDINGS LLC","PO Box 12","Austin",TX,78701\n`,
      );
      const records = await cli('import-properties', roll, '--source', 'county');
      expect(records).toMatchObject({ code: 0 });
      expect(records.stdout).toMatch(/imported 1,/);
      const owned = await trace(token, { ...query, first_name: undefined, last_name: undefined });
      expect(JSON.stringify(owned.body.owners_of_record ?? [])).toMatch(/ZEPHYR/i);

      // quotas show / set: the next trace past the quota is refused
      expect(json<{ quotas: object }>(await cli('quotas', 'show', '--account', account.id))).toEqual({
        quotas: { monthly_hits: null, monthly_rows: null },
      });
      expect(json<{ quotas: object }>(await cli('quotas', 'set', '--account', account.id, '--rows', '3'))).toEqual({
        quotas: { monthly_hits: null, monthly_rows: 3 },
      });
      const over = await trace(token, query);
      expect(over.status).toBe(429);
      expect(over.body.error).toBe(ERROR_CODES.quota_exceeded.code);
      expect((await cli('quotas', 'set', '--account', account.id, '--rows', 'none')).code).toBe(0);
      expect((await trace(token, query)).status).toBe(200);
      const unknown = await cli('quotas', 'set', '--account', 'acc_nobody', '--hits', '5');
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toMatch(/account/);

      // batch submit --wait, status, list, download, cancel --purge (through the API)
      const input = join(dir, 'batch.csv');
      await writeFile(
        input,
        `street_address,city,state,zip_code\n"${query.street_address}","${query.city}",${query.state},${query.zip_code}\n`,
      );
      const tokenFile = join(dir, 'token');
      await writeFile(tokenFile, `${token}\n`);
      const auth = ['--token-file', tokenFile];
      const batch = json<{ id: string; status: string; name: string; tags: string[] }>(
        await cli('batch', 'submit', input, '--wait', '--tag', 'austin,q1', ...auth),
      );
      expect(batch).toMatchObject({ status: 'completed', name: 'batch.csv', tags: ['austin', 'q1'] });
      expect(json<{ id: string }>(await cli('batch', 'status', batch.id, ...auth)).id).toBe(batch.id);
      expect((await cli('batch', 'list', '--json', ...auth)).stdout).toContain(batch.id);
      // Names: renamed, listed; a re-run of the whole list traced fresh, named after it.
      const renamed = json<{ name: string; tags: string[] }>(
        await cli('batch', 'update', batch.id, '--name', 'Austin list', '--tag', '', ...auth),
      );
      expect(renamed).toMatchObject({ name: 'Austin list', tags: [] });
      const fresh = json<{
        id: string;
        status: string;
        name: string;
        fresh: boolean;
        reused: number;
        rerun_of: string;
      }>(await cli('batch', 'rerun', batch.id, '--all', '--wait', ...auth));
      expect(fresh).toMatchObject({
        status: 'completed',
        name: 'Austin list (fresh)',
        fresh: true,
        reused: 0,
        rerun_of: batch.id,
      });
      const table = (await cli('batch', 'list', ...auth)).stdout;
      expect(table).toMatch(/NAME/);
      expect(table).toContain('Austin list (fresh)');
      expect((await cli('batch', 'cancel', fresh.id, '--purge', ...auth)).code).toBe(0);
      const out = join(dir, 'out.csv');
      expect((await cli('batch', 'download', batch.id, '--out', out, ...auth)).code).toBe(0);
      expect((await readFile(out, 'utf8')).trim().split('\n')).toHaveLength(2);
      expect((await cli('batch', 'cancel', batch.id, '--purge', ...auth)).code).toBe(0);

      // usage: what the commands caused is counted for the account and its client
      const usage = (await (await api(token, '/usage?group_by=client')).json()) as {
        totals: { sync_traces: number; batch_rows: number; hits: number };
        data: { client_id: string | null }[];
      };
      expect(usage.totals.sync_traces).toBe(5);
      expect(usage.totals.batch_rows).toBe(2);
      expect(usage.data.map((r) => r.client_id)).toEqual([created.client.clientId]);
    },
    TEST_MS,
  );
});

describe('an embedded store held by a process without an admin API', () => {
  it(
    'refuses with what to do, and writes nothing',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'cli-held-'));
      try {
        const data = join(dir, 'data');
        await mkdir(data, { recursive: true });
        // This test process plays the holder: alive, no admin.json beside the lock.
        await writeFile(join(data, 'store.lock'), JSON.stringify({ pid: process.pid, host: hostname(), since: 'now' }));
        const env: NodeJS.ProcessEnv = { ...process.env, SKIPTRACE_DATA_DIR: data };
        delete env.DATABASE_URL;
        const run = await spawnCli(env, dir, ['accounts', 'create', '--name', 'x']);
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(/in use by process \d+.*stop that process/);
        await expect(stat(join(data, 'pglite', 'PG_VERSION'))).rejects.toThrow();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    TEST_MS,
  );
});
