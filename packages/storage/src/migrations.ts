/**
 * Migration files shared by both adapters: every `*.sql` file in the migrations directory,
 * applied in file-name order, each once, each in its own transaction. The bookkeeping
 * table is created in code so that no migration file has to come first.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

/** Fixed key of the session advisory lock held while migrating (scoped to the database). */
export const MIGRATION_LOCK_KEY = 7_305_186_204;

export const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  name text PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

export const RECORD_MIGRATION = 'INSERT INTO schema_migrations (name, applied_at) VALUES ($1, now())';

export interface MigrationFile {
  name: string;
  sql: string;
}

/** The `.sql` files of dir sorted by name; a missing directory has none. */
export async function readMigrations(dir: string): Promise<MigrationFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files = names.filter((name) => name.endsWith('.sql')).sort();
  return Promise.all(files.map(async (name) => ({ name, sql: await readFile(join(dir, name), 'utf8') })));
}

/** Files not yet recorded in schema_migrations, in order. */
export function pendingMigrations(files: MigrationFile[], applied: Iterable<string>): MigrationFile[] {
  const done = new Set(applied);
  return files.filter((file) => !done.has(file.name));
}
