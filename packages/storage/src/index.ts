/**
 * @skiptrace/storage: the Database port with a PostgreSQL adapter (production) and a
 * PGlite adapter (one-process mode), chosen by createDatabase from configuration.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createPgliteDatabase } from './database-pglite.ts';
import { createPostgresDatabase } from './database-postgres.ts';
import type { StorageLogger } from './database-postgres.ts';
import type { Database } from './database.port.ts';
import { lockStore, type StoreLock } from './store-lock.ts';

export { DatabaseUnavailableError } from './database.port.ts';
export type { Database, QueryResult, Sql } from './database.port.ts';
export { createPostgresDatabase } from './database-postgres.ts';
export type { PostgresDatabaseOptions, StorageLogger } from './database-postgres.ts';
export { createPgliteDatabase } from './database-pglite.ts';
export type { PgliteDatabaseOptions } from './database-pglite.ts';
export { COPY_CHUNK_SIZE, encodeCopyValue } from './copy-text.ts';
export { jsonDocumentsParam, jsonDocumentsSql } from './json-documents.ts';
export { prepared } from './prepared.ts';
export { DEFAULT_MIGRATIONS_DIR } from './migrations.ts';
export { analyzeAfterLoad } from './statistics.ts';
export {
  adminEndpointPath,
  lockStore,
  StoreLockedError,
  storeLockHolder,
  storeLockPath,
  type StoreLock,
  type StoreLockHolder,
} from './store-lock.ts';

export interface DatabaseConfig {
  /** postgres:// URL; when set, PostgreSQL is used. */
  databaseUrl?: string;
  /** PGlite data directory when no URL is set; absent means in memory. */
  dataDir?: string;
  /** PostgreSQL pool size (connections); default 10. */
  max?: number;
  migrationsDir?: string;
  logger?: StorageLogger;
}

/** PostgreSQL when databaseUrl is set, otherwise embedded PGlite. */
export function createDatabase(config: DatabaseConfig = {}): Database {
  const { databaseUrl, dataDir, max, migrationsDir, logger } = config;
  if (databaseUrl) return createPostgresDatabase({ url: databaseUrl, max, migrationsDir, logger });
  return createPgliteDatabase({ dataDir, migrationsDir });
}

/** What a process reads from its environment to find the store. */
export interface StoreEnv {
  DATABASE_URL?: string;
  SKIPTRACE_DATA_DIR?: string;
}

/** SKIPTRACE_DATA_DIR, default `.data`: where the one-process mode keeps its files. */
export const dataDirFrom = (env: StoreEnv): string => env.SKIPTRACE_DATA_DIR || '.data';

/**
 * The store the environment names, migrated: PostgreSQL when DATABASE_URL is set (a pool of
 * `max` connections), else PGlite in <SKIPTRACE_DATA_DIR>/pglite (created if missing), locked
 * for this process until close() (store-lock.ts: a second process gets StoreLockedError
 * instead of a second writer). Every process (services, the one-process system, the CLI,
 * admin tools) opens it here.
 */
export async function openStore(
  env: StoreEnv,
  options: { max?: number; logger?: StorageLogger } = {},
): Promise<Database> {
  const databaseUrl = env.DATABASE_URL || undefined;
  const root = dataDirFrom(env);
  const dataDir = join(root, 'pglite');
  let lock: StoreLock | undefined;
  if (!databaseUrl) {
    // PGlite creates only the last level of its directory; a fresh data dir has none.
    await mkdir(dataDir, { recursive: true });
    lock = await lockStore(root);
  }
  let db: Database;
  try {
    db = createDatabase({ databaseUrl, dataDir: databaseUrl ? undefined : dataDir, ...options });
  } catch (err) {
    await lock?.release();
    throw err;
  }
  if (lock) {
    const close = db.close.bind(db);
    const held = lock;
    db = {
      ...db,
      async close() {
        try {
          await close();
        } finally {
          await held.release();
        }
      },
    };
  }
  try {
    await db.migrate();
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
