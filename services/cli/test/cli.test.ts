/**
 * The command line itself: help, strict options, one-line errors, secrets kept off argv,
 * the bin entry. Parsing runs in-process; `users create` is spawned against a temporary
 * PGlite directory.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../src/cli.ts';
import { commands } from '../src/commands/index.ts';

/** Spawns load the module graph and PGlite: seconds apiece on a loaded 2-core machine. */
const SPAWN_TEST_MS = 180_000;

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, commands, {
    stdout: { write: (t: string) => out.push(t) },
    stderr: { write: (t: string) => err.push(t) },
    env: {},
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const full: NodeJS.ProcessEnv = { ...process.env, SKIPTRACE_DATA_DIR: join(dir, 'data'), ...env };
  delete full.DATABASE_URL;
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(process.execPath, [MAIN, ...args], { env: full, cwd: dir }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

describe('help', () => {
  it('lists every command, and the batch subcommands on their own', async () => {
    const all = await cli('--help');
    expect(all.code).toBe(0);
    for (const name of ['batch submit', 'batch list', 'batch status', 'batch cancel', 'batch download', 'users create'])
      expect(all.stdout).toContain(name);
    const batch = await cli('batch', '--help');
    expect(batch.code).toBe(0);
    expect(batch.stdout).toContain('batch cancel');
    expect(batch.stdout).not.toContain('users create');
  });

  it('prints the options of one command', async () => {
    const help = await cli('batch', 'submit', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: skiptrace batch submit FILE \[options\]/);
    for (const flag of ['--wait', '--map', '--idempotency-key', '--api URL', '--token-file FILE', '--client-id'])
      expect(help.stdout).toContain(flag);
  });
});

describe('errors', () => {
  it('refuses an unknown option with one line and the usage (exit 2)', async () => {
    const res = await cli('batch', 'list', '--limt', '5');
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      "skiptrace batch list: unknown option '--limt'\nusage: skiptrace batch list [options]   (--help for more)\n",
    );
  });

  it('names unknown commands and subcommands', async () => {
    expect(await cli('frobnicate')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command: frobnicate'),
    });
    expect(await cli('batch', 'pause')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown batch command: pause'),
    });
    expect((await cli('batch')).code).toBe(2);
  });

  it('reports an unreachable API in one line, without a stack', async () => {
    const res = await cli('batch', 'status', '1', '--api', 'http://127.0.0.1:18799/api/v1', '--token', 't');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^skiptrace batch status: fetch failed \(ECONNREFUSED\)\n$/);
  });

  it('checks values before calling the API', async () => {
    expect((await cli('batch', 'list', '--limit', '0', '--token', 't')).stderr).toContain(
      '--limit must be an integer 1–500',
    );
    expect((await cli('batch', 'download', '7', '--token', 't')).stderr).toContain('--out is required');
    expect((await cli('batch', 'submit', join(dir, 'missing.csv'), '--token', 't')).stderr).toContain('no such file');
  });
});

describe('secrets off the command line', () => {
  it(
    'users create takes the password from SKIPTRACE_PASSWORD or --password-file',
    async () => {
      const fromEnv = await spawnCli(['users', 'create', '--email', 'env@example.test'], {
        SKIPTRACE_PASSWORD: 'correct horse battery',
      });
      expect(fromEnv.code).toBe(0);
      expect(JSON.parse(fromEnv.stdout).user.email).toBe('env@example.test');
      const file = join(dir, 'password');
      await writeFile(file, 'another long password\n');
      const fromFile = await spawnCli(['users', 'create', '--email', 'file@example.test', '--password-file', file]);
      expect(fromFile.code).toBe(0);
    },
    SPAWN_TEST_MS,
  );

  it(
    'asks for the password only on a terminal, else says where to put it',
    async () => {
      const res = await spawnCli(['users', 'create', '--email', 'none@example.test']);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('password is required: --password-file FILE, SKIPTRACE_PASSWORD, or a terminal');
    },
    SPAWN_TEST_MS,
  );
});

it('has a bin entry that runs the executable', async () => {
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
  expect(pkg.bin).toEqual({ skiptrace: './src/main.ts' });
  expect((await readFile(MAIN, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
});
