/**
 * @skiptrace/storage: the Database port with a PostgreSQL adapter (production) and a
 * PGlite adapter (one-process mode), chosen by createDatabase from configuration.
 */
import { createPgliteDatabase } from './database-pglite.ts';
import { createPostgresDatabase } from './database-postgres.ts';
import type { StorageLogger } from './database-postgres.ts';
import type { Database } from './database.port.ts';

export { DatabaseUnavailableError } from './database.port.ts';
export type { Database, QueryResult, Sql } from './database.port.ts';
export { createPostgresDatabase } from './database-postgres.ts';
export type { PostgresDatabaseOptions, StorageLogger } from './database-postgres.ts';
export { createPgliteDatabase } from './database-pglite.ts';
export type { PgliteDatabaseOptions } from './database-pglite.ts';
export { encodeCopyValue } from './copy-text.ts';
export { DEFAULT_MIGRATIONS_DIR } from './migrations.ts';
export { analyzeAfterLoad } from './statistics.ts';

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
