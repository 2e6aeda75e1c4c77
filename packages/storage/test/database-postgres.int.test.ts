import { describe, expect, it, jest } from '@jest/globals';
import { createTestDatabaseUrl } from '@skiptrace/testing';
import { createPostgresDatabase } from '../src/database-postgres.ts';
import { DatabaseUnavailableError } from '../src/database.port.ts';
import { createDatabase } from '../src/index.ts';
import { prepared } from '../src/prepared.ts';
import { describeDatabaseContract } from './database.contract.ts';

// CREATE DATABASE per migration test and a 50,000-row COPY; slow on a busy machine.
jest.setTimeout(30_000);

describeDatabaseContract({
  kind: 'postgres',
  async createStore() {
    const database = await createTestDatabaseUrl('storage_contract');
    return {
      shared: true,
      open: (migrationsDir) => createPostgresDatabase({ url: database.url, max: 4, migrationsDir }),
      drop: () => database.drop(),
    };
  },
});

describe('PostgreSQL adapter failures', () => {
  it('rejects with DatabaseUnavailableError, with the cause, when nothing listens', async () => {
    // Port 1 on loopback: refused at once, no PostgreSQL restart needed.
    const db = createDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/test' });
    expect(db.kind).toBe('postgres');
    try {
      const failure = await db.query('SELECT 1').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(DatabaseUnavailableError);
      expect((failure as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
      await expect(db.transaction(async () => 'never')).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(db.copyRows('t', ['a'], [['x']])).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(db.migrate()).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(db.ping()).rejects.toBeInstanceOf(DatabaseUnavailableError);
    } finally {
      await db.close();
    }
  });

  it('passes statement errors through unchanged', async () => {
    const database = await createTestDatabaseUrl('storage_errors');
    const db = createPostgresDatabase({ url: database.url, max: 2 });
    try {
      await expect(db.query('SELECT * FROM no_such_table')).rejects.toMatchObject({ code: '42P01' });
      await expect(db.query('SELECT * FROM no_such_table')).rejects.not.toBeInstanceOf(DatabaseUnavailableError);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});

describe('prepared statements', () => {
  it('runs a text marked by prepared() as a named statement on its connection, and no other text', async () => {
    const database = await createTestDatabaseUrl('storage_prepared');
    // One connection, so the statements below all see the same session's prepared statements.
    const db = createPostgresDatabase({ url: database.url, max: 1 });
    try {
      await db.query('CREATE TABLE t (a int)');
      await db.query('INSERT INTO t VALUES (1), (2), (3)');
      const marked = prepared('SELECT a FROM t WHERE a = ANY($1::int[]) ORDER BY a');
      const unmarked = 'SELECT a FROM t WHERE a > $1 ORDER BY a';
      for (let i = 0; i < 7; i++) expect((await db.query(marked, [[1, 3]])).rows).toEqual([{ a: 1 }, { a: 3 }]);
      expect((await db.query(unmarked, [1])).rows).toEqual([{ a: 2 }, { a: 3 }]);
      await db.transaction(async (tx) => {
        expect((await tx.query(marked, [[2]])).rows).toEqual([{ a: 2 }]);
      });
      const listed = await db.query<{ name: string; statement: string }>(
        'SELECT name, statement FROM pg_prepared_statements',
      );
      expect(listed.rows).toEqual([{ name: expect.stringMatching(/^skiptrace_\d+$/), statement: marked }]);
      // A schema change after it was prepared (a migration while the pool lives): planned again, not an error.
      await db.query('ALTER TABLE t ADD COLUMN b text');
      await db.query("INSERT INTO t VALUES (4, 'x')");
      expect((await db.query(marked, [[4]])).rows).toEqual([{ a: 4 }]);
      // Marking the same text again keeps its one name.
      expect(prepared(marked)).toBe(marked);
      const again = await db.query('SELECT count(*)::int AS n FROM pg_prepared_statements');
      expect(again.rows).toEqual([{ n: 1 }]);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
