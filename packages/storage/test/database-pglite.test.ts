import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { createPgliteDatabase } from '../src/database-pglite.ts';
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
