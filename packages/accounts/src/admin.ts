/**
 * For admin tools (the CLI, rotate-keys.ts): opens the database the services use (openStore:
 * DATABASE_URL, else PGlite in <SKIPTRACE_DATA_DIR>/pglite), runs fn, closes. Not for
 * long-running services, which wire their adapters in main.ts.
 */
import { openStore, type Database } from '@skiptrace/storage';
import { createAccounts, type Accounts } from './accounts.service.ts';

export async function withAuthDatabase<T>(
  fn: (accounts: Accounts, db: Database) => Promise<T>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<T> {
  const db = await openStore(env);
  try {
    return await fn(createAccounts(db), db);
  } finally {
    await db.close();
  }
}
