import { describe, expect, it, jest } from '@jest/globals';
import { createTestDatabaseUrl } from '@skiptrace/testing';
import { createPostgresDatabase } from '../src/database-postgres.ts';
import { DatabaseUnavailableError } from '../src/database.port.ts';
import { createDatabase } from '../src/index.ts';
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
