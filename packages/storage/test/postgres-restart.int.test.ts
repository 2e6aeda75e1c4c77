/**
 * Stops the run's PostgreSQL container (docker stop) for a few seconds, then starts it
 * again (always, in finally and afterAll); the machine's own server is not touched. Other
 * files of this run sharing the container would see connection errors, which is why
 * this file runs alone (scripts/test.ts). Checks that the adapter fails fast while
 * the server is down and recovers without being recreated.
 */
// @run-alone: stops and starts PostgreSQL.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createTestDatabaseUrl, startPostgres, stopPostgres, waitUntil } from '@skiptrace/testing';
import type { TestDatabase } from '@skiptrace/testing';
import { createPostgresDatabase } from '../src/database-postgres.ts';
import { DatabaseUnavailableError } from '../src/database.port.ts';
import type { Database } from '../src/database.port.ts';

// Stopping and starting PostgreSQL takes several seconds.
jest.setTimeout(90_000);

describe("PostgreSQL adapter across a server restart (stops the run's server)", () => {
  let database: TestDatabase;
  let db: Database;
  const warnings: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabaseUrl('storage_restart');
    const logger = { warn: (_meta: object, message?: string) => warnings.push(message ?? ''), info: () => {} };
    db = createPostgresDatabase({ url: database.url, max: 4, logger });
    // Four connections at once, so the pool holds idle clients when the server goes away.
    await Promise.all([1, 2, 3, 4].map(() => db.query('SELECT pg_sleep(0.05)')));
  });

  afterAll(async () => {
    await startPostgres();
    await db?.close();
    await database?.drop();
  });

  it('fails fast while PostgreSQL is down and serves queries again once it is back', async () => {
    const inFlight = db
      .transaction((tx) => tx.query("SELECT pg_sleep(30), 'in flight' AS marker"))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    await waitUntil(
      async () =>
        (
          await db.query(
            "SELECT 1 FROM pg_stat_activity WHERE query LIKE '%''in flight''%' AND pid <> pg_backend_pid()",
          )
        ).rowCount > 0,
      { message: 'long query visible in pg_stat_activity' },
    );
    try {
      await stopPostgres();
      expect(await inFlight).toBeInstanceOf(DatabaseUnavailableError);
      await waitUntil(() => warnings.includes('postgres: idle connection lost'), { message: 'idle client error' });

      const started = Date.now();
      await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(db.transaction((tx) => tx.query('SELECT 1'))).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(db.ping()).rejects.toBeInstanceOf(DatabaseUnavailableError);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await startPostgres();
    }

    await expect(db.query<{ n: number }>('SELECT 1 AS n')).resolves.toMatchObject({ rows: [{ n: 1 }] });
    await expect(db.transaction((tx) => tx.query('SELECT 2 AS n'))).resolves.toMatchObject({ rows: [{ n: 2 }] });
    await db.query('CREATE TABLE after_restart (a text)');
    await expect(db.copyRows('after_restart', ['a'], [['x'], ['y']])).resolves.toBe(2);
    const parallel = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => db.query('SELECT $1::int AS n', [n])));
    expect(parallel.map((result) => result.rows[0])).toEqual([1, 2, 3, 4, 5, 6].map((n) => ({ n })));
  });
});
