/**
 * For admin tools (the CLI, rotate-keys.ts): opens the database the services use —
 * DATABASE_URL, else PGlite in <SKIPTRACE_DATA_DIR>/pglite — applies migrations, runs fn,
 * closes. Not for long-running services, which wire their adapters in main.ts.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createDatabase, type Database } from '@skiptrace/storage';
import { createAccounts, type Accounts } from './accounts.service.ts';

export function dataDirFrom(env: NodeJS.ProcessEnv = process.env): string {
  return env.SKIPTRACE_DATA_DIR || '.data';
}

export async function withAuthDatabase<T>(
  fn: (accounts: Accounts, db: Database) => Promise<T>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<T> {
  const databaseUrl = env.DATABASE_URL || undefined;
  const dataDir = join(dataDirFrom(env), 'pglite');
  // PGlite creates only the last level of its directory; a fresh data dir has none.
  if (!databaseUrl) await mkdir(dataDir, { recursive: true });
  const db = createDatabase({ databaseUrl, dataDir });
  try {
    await db.migrate();
    return await fn(createAccounts(db), db);
  } finally {
    await db.close();
  }
}
