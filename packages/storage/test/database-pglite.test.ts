import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { clusterPath, createPgliteDatabase } from '../src/database-pglite.ts';
import { createDatabase } from '../src/index.ts';
import { describeDatabaseContract } from './database.contract.ts';

// Starting a PGlite instance takes 1–3 s of WASM start-up, and the migration tests start
// one per test: over 30 s each on a loaded 2-core machine (seen at load 12).
jest.setTimeout(180_000);

describeDatabaseContract({
  kind: 'pglite',
  async createStore() {
    // In memory: every open() is a new, empty database.
    return { shared: false, open: (migrationsDir) => createPgliteDatabase({ migrationsDir }), drop: async () => {} };
  },
});

describe('PGlite with a data directory', () => {
  const OK_DIR = fileURLToPath(new URL('./fixtures/migrations-ok/', import.meta.url));
  let dataDir: string | undefined;

  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps data and applied migrations across close and reopen', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'storage-pglite-'));
    const first = createDatabase({ dataDir, migrationsDir: OK_DIR });
    expect(first.kind).toBe('pglite');
    await expect(first.migrate()).resolves.toHaveLength(2);
    await first.query('INSERT INTO gadgets VALUES (7)');
    await first.close();

    const second = createPgliteDatabase({ dataDir, migrationsDir: OK_DIR });
    try {
      await expect(second.migrate()).resolves.toEqual([]);
      const { rows } = await second.query<{ id: number }>('SELECT id FROM gadgets');
      expect(rows).toEqual([{ id: 7 }]);
    } finally {
      await second.close();
    }
  });
});

describe('in-memory databases from the kept fresh cluster', () => {
  it('each starts empty: what one writes, the next does not see', async () => {
    const first = createPgliteDatabase();
    await first.query('CREATE TABLE written_by_first (n int)');
    await first.query('INSERT INTO written_by_first VALUES (1)');
    const second = createPgliteDatabase();
    const { rows } = await second.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_class WHERE relname = 'written_by_first'",
    );
    expect(rows).toEqual([{ n: 0 }]);
    await Promise.all([first.close(), second.close()]);
  });

  it('a damaged cluster file is replaced, and a new process still starts its database', async () => {
    // The file is read once a process: a new one (Node runs the TypeScript sources) finds it damaged.
    const path = clusterPath();
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, 'not a tar archive');
    const source = new URL('../src/database-pglite.ts', import.meta.url).href;
    const script = `import { createPgliteDatabase } from ${JSON.stringify(source)};
      for (let i = 0; i < 2; i++) {
        const db = createPgliteDatabase();
        console.log(JSON.stringify((await db.query('SELECT 1 AS ok')).rows));
        await db.close();
      }`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stdout.trim().split('\n')).toEqual(['[{"ok":1}]', '[{"ok":1}]']);
    expect(child.status).toBe(0);
    // The first database ran initdb and dropped the damaged file; the second made it again.
    expect((await stat(path)).size).toBeGreaterThan(1_000_000);
  });

  it('a new data directory starts from the cluster, or from initdb when the file is damaged', async () => {
    const path = clusterPath();
    const parent = await mkdtemp(join(tmpdir(), 'pglite-first-start-'));
    const source = new URL('../src/database-pglite.ts', import.meta.url).href;
    try {
      for (const damaged of [false, true]) {
        if (damaged) await writeFile(path, 'not a tar archive');
        const dataDir = join(parent, damaged ? 'after-damage' : 'fresh');
        const script = `import { createPgliteDatabase } from ${JSON.stringify(source)};
          const dataDir = ${JSON.stringify(dataDir)};
          const db = createPgliteDatabase({ dataDir });
          await db.query('CREATE TABLE kept (n int)');
          await db.query('INSERT INTO kept VALUES (7)');
          await db.close();
          const again = createPgliteDatabase({ dataDir });
          console.log(JSON.stringify((await again.query('SELECT n FROM kept')).rows));
          await again.close();`;
        const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
        expect({ damaged, out: child.stdout.trim(), status: child.status }).toEqual({
          damaged,
          out: '[{"n":7}]',
          status: 0,
        });
      }
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
