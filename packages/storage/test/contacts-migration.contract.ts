/**
 * The product's own contact migrations on a store that already holds contacts: 021 must
 * upgrade the table 020 created in place (rows kept, same dedupe, same lookups), as it
 * does on an operator's existing database. Run by describeDatabaseContract for each adapter.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { Database } from '../src/database.port.ts';
import { DEFAULT_MIGRATIONS_DIR } from '../src/migrations.ts';
import type { DatabaseHarness } from './database-harness.ts';

const CREATE = '020_contacts.sql';
const CHEAPER_INDEXES = '021_contacts_cheaper_indexes.sql';

const INSERT = `INSERT INTO contacts (address_key, street_address, city, state, zip5, first_name, row_hash)
VALUES ($1, $2, 'AUSTIN', 'TX', '78701', $3, $4)`;

interface Stored {
  id: string;
  address_key: string;
  first_name: string;
  row_hash: string;
}

async function storedRows(db: Database): Promise<Stored[]> {
  const { rows } = await db.query<Stored>('SELECT id, address_key, first_name, row_hash FROM contacts ORDER BY id');
  return rows;
}

export function describeContactsMigrationContract(harness: DatabaseHarness): void {
  describe(`contacts migrations on an existing table (${harness.kind})`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it(`${CHEAPER_INDEXES} keeps every row and the dedupe, and changes only the indexes`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'storage-contacts-migrations-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const store = await harness.createStore();
      cleanups.push(() => store.drop());
      const db = store.open(dir);
      cleanups.push(() => db.close());

      await copyFile(join(DEFAULT_MIGRATIONS_DIR, CREATE), join(dir, CREATE));
      await expect(db.migrate()).resolves.toEqual([CREATE]);
      // Mixed case and non-ASCII keys: equality must not depend on the collation.
      const rows: [string, string, string, string][] = [
        ['123|N MAIN ST|78701', '123 N MAIN ST', 'Ann', 'hashA'],
        ['123|N MAIN ST|78701', '123 N MAIN ST', 'Bob', 'hasha'],
        ['9|ÉLM ST|78701', '9 ÉLM ST', 'José', 'Hash-_é'],
      ];
      for (const row of rows) await db.query(INSERT, row);
      const before = await storedRows(db);
      const filenode = async (): Promise<unknown> =>
        (await db.query<{ f: unknown }>(`SELECT relfilenode AS f FROM pg_class WHERE relname = 'contacts'`)).rows[0]!.f;
      const tableFile = await filenode();

      await copyFile(join(DEFAULT_MIGRATIONS_DIR, CHEAPER_INDEXES), join(dir, CHEAPER_INDEXES));
      await expect(db.migrate()).resolves.toEqual([CHEAPER_INDEXES]);

      // Same rows, and the table was not rewritten (only its indexes were rebuilt).
      expect(await storedRows(db)).toEqual(before);
      expect(await filenode()).toEqual(tableFile);
      const indexes = await db.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'contacts' ORDER BY indexname`,
      );
      expect(indexes.rows.map((row) => row.indexname)).toEqual([
        'contacts_address_key_hash_idx',
        'contacts_pkey',
        'contacts_row_hash_key',
      ]);
      expect(indexes.rows[0]!.indexdef).toMatch(/USING hash \(address_key\)/);
      const collation = await db.query<{ collname: string }>(
        `SELECT c.collname FROM pg_attribute a JOIN pg_collation c ON c.oid = a.attcollation
         WHERE a.attrelid = 'contacts'::regclass AND a.attname = 'row_hash'`,
      );
      expect(collation.rows).toEqual([{ collname: 'C' }]);

      // row_hash is still unique, byte for byte, and ON CONFLICT (row_hash) still finds it.
      await expect(db.query(INSERT, ['1|X ST|78701', '1 X ST', 'Dup', 'hashA'])).rejects.toMatchObject({
        code: '23505',
      });
      const skipped = await db.query(`${INSERT} ON CONFLICT (row_hash) DO NOTHING`, [
        '1|X ST|78701',
        '1 X ST',
        'Dup',
        'Hash-_é',
      ]);
      expect(skipped.rowCount).toBe(0);
      const added = await db.query(`${INSERT} ON CONFLICT (row_hash) DO NOTHING`, [
        '1|X ST|78701',
        '1 X ST',
        'New',
        'HASHA',
      ]);
      expect(added.rowCount).toBe(1);

      // The lookup's query (findCandidates) finds the same rows by address_key.
      const found = await db.query<{ first_name: string }>(
        `SELECT first_name FROM contacts WHERE address_key = ANY($1::text[]) ORDER BY address_key, id`,
        [['123|N MAIN ST|78701', '9|ÉLM ST|78701', '123|n main st|78701']],
      );
      expect(found.rows.map((row) => row.first_name)).toEqual(['Ann', 'Bob', 'José']);
    });
  });
}
