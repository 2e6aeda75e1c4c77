/**
 * Migration behaviour, part of the Database contract (describeDatabaseContract calls it).
 * Every test gets a fresh store, since migrations change the schema for good.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { Database } from '../src/database.port.ts';
import type { DatabaseHarness, TestStore } from './database-harness.ts';

const OK_DIR = fileURLToPath(new URL('./fixtures/migrations-ok/', import.meta.url));
const BROKEN_DIR = fileURLToPath(new URL('./fixtures/migrations-broken/', import.meta.url));
const OK_FILES = ['001_widgets.sql', '002_gadgets.sql'];

export function describeMigrateContract(harness: DatabaseHarness): void {
  describe(`Database.migrate (${harness.kind})`, () => {
    const cleanups: Array<() => Promise<void>> = [];

    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    async function freshStore(): Promise<TestStore> {
      const store = await harness.createStore();
      cleanups.push(() => store.drop());
      return store;
    }

    function open(store: TestStore, dir: string): Database {
      const db = store.open(dir);
      cleanups.push(() => db.close());
      return db;
    }

    async function widgetNames(db: Database): Promise<string[]> {
      const { rows } = await db.query<{ name: string }>('SELECT name FROM widgets ORDER BY id');
      return rows.map((row) => row.name);
    }

    it('applies the .sql files in name order, then nothing on the second call', async () => {
      const db = open(await freshStore(), OK_DIR);
      await expect(db.migrate()).resolves.toEqual(OK_FILES);
      await expect(db.migrate()).resolves.toEqual([]);
      expect(await widgetNames(db)).toEqual(['from 001', 'from 002']);
      const { rows } = await db.query<{ name: string; applied_at: unknown }>(
        'SELECT name, applied_at FROM schema_migrations ORDER BY name',
      );
      expect(rows.map((row) => row.name)).toEqual(OK_FILES);
      for (const row of rows) expect(row.applied_at).toBeInstanceOf(Date);
    });

    it('applies only the files added since the last run', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'storage-migrations-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      await copyFile(join(OK_DIR, '001_widgets.sql'), join(dir, '001_widgets.sql'));
      const db = open(await freshStore(), dir);
      await expect(db.migrate()).resolves.toEqual(['001_widgets.sql']);
      await copyFile(join(OK_DIR, '002_gadgets.sql'), join(dir, '002_gadgets.sql'));
      await expect(db.migrate()).resolves.toEqual(['002_gadgets.sql']);
      expect(await widgetNames(db)).toEqual(['from 001', 'from 002']);
    });

    it('stops at a failing file, keeping earlier files and no trace of the failed one', async () => {
      const db = open(await freshStore(), BROKEN_DIR);
      await expect(db.migrate()).rejects.toThrow(/migration 002_broken\.sql failed/);
      const applied = await db.query<{ name: string }>('SELECT name FROM schema_migrations');
      expect(applied.rows).toEqual([{ name: '001_widgets.sql' }]);
      const tables = await db.query<{ half: boolean; never: boolean }>(
        `SELECT to_regclass('half_done') IS NULL AS half, to_regclass('never_reached') IS NULL AS never`,
      );
      expect(tables.rows[0]).toEqual({ half: true, never: true });
    });

    it('applies each file exactly once when migrate() runs concurrently', async () => {
      const store = await freshStore();
      // Separate instances where they share the data (PostgreSQL), else concurrent calls on one.
      const first = open(store, OK_DIR);
      const dbs = store.shared ? [first, open(store, OK_DIR), open(store, OK_DIR)] : [first, first, first];
      const results = await Promise.all(dbs.map((db) => db.migrate()));
      expect(results.flat().sort()).toEqual(OK_FILES);
      expect(await widgetNames(first)).toEqual(['from 001', 'from 002']);
    });

    it('treats a missing migrations directory as having no files', async () => {
      const db = open(await freshStore(), join(tmpdir(), 'storage-no-such-dir', String(process.pid)));
      await expect(db.migrate()).resolves.toEqual([]);
      expect((await db.query('SELECT name FROM schema_migrations')).rowCount).toBe(0);
    });
  });
}
