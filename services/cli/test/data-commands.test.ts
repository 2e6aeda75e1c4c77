/**
 * The data commands end to end: each test spawns `node services/cli/src/main.ts …` with
 * SKIPTRACE_DATA_DIR in a temporary directory (embedded PGlite, no DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/**
 * Each test spawns the CLI a few times, and each spawn loads the module graph and opens
 * and migrates PGlite: seconds apiece on a loaded 2-core machine (CI runs the packages'
 * tests side by side), so the bound is generous.
 */
const SPAWN_TEST_MS = 180_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let dir: string;

function cli(...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, SKIPTRACE_DATA_DIR: join(dir, 'data') };
  delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { env, cwd: dir }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-data-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('demo-data', () => {
  it(
    'writes the same canonical CSV for the same seed and names an address that matches',
    async () => {
      const a = await cli('demo-data', '--rows', '25', '--seed', '3');
      const b = await cli('demo-data', '--rows', '25', '--seed', '3');
      expect(a.code).toBe(0);
      const lines = a.stdout.trim().split('\n');
      expect(lines[0]).toBe(
        'street_address,city,state,zip_code,first_name,last_name,phone_1,phone_1_type,phone_2,phone_2_type,email_1',
      );
      expect(lines).toHaveLength(26);
      expect(b.stdout).toBe(a.stdout);
      expect(lines.slice(1).join('\n')).toMatch(/555.?01\d\d/);
      expect(a.stderr).toMatch(/"street_address":/);
    },
    SPAWN_TEST_MS,
  );

  it(
    'writes the demo Do-Not-Call and litigator lists, which import-suppression loads',
    async () => {
      const dnc = join(dir, 'demo-dnc.txt');
      const litigator = join(dir, 'demo-litigator.txt');
      const run = await cli(
        'demo-data',
        '--rows',
        '5',
        '--out',
        join(dir, 'five.csv'),
        '--dnc',
        dnc,
        '--litigator',
        litigator,
      );
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/wrote the demo dnc list \(\d+ numbers\)/);
      const numbers = (await readFile(dnc, 'utf8')).trim().split('\n');
      expect(numbers.length).toBeGreaterThan(1000);
      for (const n of numbers) expect(n).toMatch(/^\+1[2-9]\d{2}55501\d{2}$/);
      const loaded = await cli('import-suppression', '--kind', 'litigator', litigator);
      expect(loaded.code).toBe(0);
      const count = (await readFile(litigator, 'utf8')).trim().split('\n').length;
      expect(loaded.stdout).toContain(`litigator: read ${count}, imported ${count}`);
    },
    SPAWN_TEST_MS,
  );

  it(
    'refuses a bad --rows',
    async () => {
      expect((await cli('demo-data', '--rows', 'many')).code).toBe(2);
    },
    SPAWN_TEST_MS,
  );
});

describe('import and import-suppression', () => {
  it(
    'imports a file, skips it the second time, and reports rejects with line numbers',
    async () => {
      const file = join(dir, 'contacts.csv');
      expect((await cli('demo-data', '--rows', '40', '--seed', '9', '--out', file)).code).toBe(0);
      const bad =
        'Address,City,State,Zip,Phone\n1 Main St,Austin,TX,78701,512-555-0100\n2 Main St,Austin,ZZ,78701,512-555-0100\n';
      await writeFile(join(dir, 'bad.csv'), bad);

      const first = await cli('import', file);
      expect(first).toMatchObject({ code: 0 });
      expect(first.stdout).toMatch(/read 40, imported 40, duplicates 0, rejected 0/);
      const again = await cli('import', file);
      expect(again.stdout).toMatch(/read 40, imported 0, duplicates 40, rejected 0/);

      const rejects = join(dir, 'rejects.csv');
      const mixed = await cli('import', join(dir, 'bad.csv'), '--rejects', rejects);
      expect(mixed.stdout).toMatch(/read 2, imported 1, duplicates 0, rejected 1/);
      expect(await readFile(rejects, 'utf8')).toBe('line,reason\n3,"unknown state ""ZZ"""\n');
    },
    SPAWN_TEST_MS,
  );

  it(
    'applies --map and fails with a usage error when the mapped header is missing',
    async () => {
      await writeFile(join(dir, 'mapped.csv'), 'Situs,Town,ST,Zip,Tel A\n9 Oak St,Austin,TX,78701,512-555-0199\n');
      const ok = await cli('import', join(dir, 'mapped.csv'), '--map', 'street_address=Situs,phone_1=Tel A');
      expect(ok.stdout).toMatch(/imported 1/);
      const missing = await cli('import', join(dir, 'mapped.csv'), '--map', 'street_address=Nope');
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/no column "Nope"/);
    },
    SPAWN_TEST_MS,
  );

  it(
    'loads a DNC file in the registry format',
    async () => {
      await writeFile(join(dir, 'dnc.txt'), '512,5550100\n5125550101\nnonsense\n');
      const run = await cli('import-suppression', '--kind', 'dnc', join(dir, 'dnc.txt'));
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/dnc: read 3, imported 2, duplicates 0, rejected 1/);
      expect((await cli('import-suppression', '--kind', 'spam', join(dir, 'dnc.txt'))).code).toBe(2);
    },
    SPAWN_TEST_MS,
  );

  it(
    'imports property records with the same options, rejects and exit codes',
    async () => {
      await writeFile(
        join(dir, 'roll.csv'),
        'PARCEL_NUMBER,SITUS_ADDR,SITUS_CITY,SITUS_STATE,SITUS_ZIP,OWN_NAME\n1,12 Oak Ave,Austin,TX,78701,SMITH JOHN & MARY\n2,,Austin,TX,78701,DOE JANE\n',
      );
      const run = await cli('import-properties', join(dir, 'roll.csv'), '--rejects', join(dir, 'roll-rejects.csv'));
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/read 2, imported 1, duplicates 0, rejected 1/);
      expect(await readFile(join(dir, 'roll-rejects.csv'), 'utf8')).toBe('line,reason\n3,missing street_address\n');
      const mapped = await cli('import-properties', join(dir, 'roll.csv'), '--map', 'owner_name=Nope');
      expect(mapped.code).toBe(2);
      expect(mapped.stderr).toMatch(/no column "Nope"/);
    },
    SPAWN_TEST_MS,
  );

  it(
    'answers usage errors with exit code 2',
    async () => {
      expect((await cli('import')).code).toBe(2);
      expect((await cli('import', join(dir, 'no-such-file.csv'))).code).toBe(2);
    },
    SPAWN_TEST_MS,
  );
});
