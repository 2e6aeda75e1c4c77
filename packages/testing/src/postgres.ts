/**
 * A database of its own for each integration test file, created on the run's server (its
 * container, or the machine's with SKIPTRACE_TEST_SERVICES=local) from the `test`
 * connection and dropped afterwards, so files never see each other's tables.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { testUrls } from './services.ts';

export interface TestDatabase {
  /** Connection URL of the new database. */
  url: string;
  /** The database's name. */
  name: string;
  /** Drops the database, disconnecting whoever is still connected. Idempotent. */
  drop(): Promise<void>;
}

/** Lower-case letters, digits and `_`, at most 63 bytes (PostgreSQL's identifier limit). */
function databaseName(prefix: string): string {
  const words = prefix.toLowerCase().match(/[a-z0-9]+/g) ?? ['test'];
  const clean = words.join('_').slice(0, 40);
  return `${clean}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates an empty database named after prefix plus a random suffix. */
export async function createTestDatabaseUrl(
  prefix: string,
  adminUrl: string = testUrls().databaseUrl,
): Promise<TestDatabase> {
  const name = databaseName(prefix);
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    url: url.toString(),
    name,
    drop() {
      dropped ??= withAdmin(adminUrl, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
      return dropped;
    },
  };
}
