/**
 * The embedded Database: PGlite (PostgreSQL compiled to WASM) inside this process, in
 * memory or in dataDir. For the one-process mode, local development and unit tests.
 *
 * Not for: more than one process on the same dataDir (no locking between processes; the
 * data directory gets corrupted), concurrent throughput (one backend, every statement runs
 * in turn), or large data sets (the WASM heap holds the working set). Inside transaction()
 * use only the tx handle: a query on the Database itself waits for the transaction to end,
 * so awaiting it from inside the transaction deadlocks (node-postgres would use a second
 * connection instead).
 */
import { PGlite } from '@electric-sql/pglite';
import type { Results, Transaction } from '@electric-sql/pglite';
import { copyChunks, copyStatement } from './copy-text.ts';
import type { Database, QueryResult, Sql } from './database.port.ts';
import {
  CREATE_MIGRATIONS_TABLE,
  DEFAULT_MIGRATIONS_DIR,
  RECORD_MIGRATION,
  pendingMigrations,
  readMigrations,
} from './migrations.ts';
import { pgliteParsers } from './type-parsers.ts';
import { tracedQuery } from './observe.ts';

export interface PgliteDatabaseOptions {
  /** Directory of the data files; absent means in memory (gone on close). */
  dataDir?: string;
  /** Directory of `*.sql` migrations; default packages/storage/migrations. */
  migrationsDir?: string;
}

/** COPY input is handed to PGlite as one in-memory Blob per this many characters. */
const BLOB_BATCH_SIZE = 8 * 1024 * 1024;

function wrapResult<T>(result: Results<T>): QueryResult<T> {
  // PGlite counts DML rows in affectedRows and leaves it 0 for SELECT.
  return { rows: result.rows, rowCount: Math.max(result.affectedRows ?? 0, result.rows.length) };
}

function sqlOf(tx: Transaction): Sql {
  return {
    query: <T>(text: string, params?: unknown[]) =>
      tracedQuery(text, async () => wrapResult<T>(await tx.query<T>(text, params))),
  };
}

export function createPgliteDatabase(options: PgliteDatabaseOptions = {}): Database {
  const { migrationsDir = DEFAULT_MIGRATIONS_DIR } = options;
  const pglite = new PGlite({ dataDir: options.dataDir, parsers: pgliteParsers });
  let migrating: Promise<unknown> = Promise.resolve();
  let closing: Promise<void> | undefined;

  async function copyBatch(tx: Transaction, statement: string, parts: string[]): Promise<number> {
    const result = await tx.query(statement, [], { blob: new Blob(parts) });
    return result.affectedRows ?? 0;
  }

  async function applyPending(): Promise<string[]> {
    await pglite.exec(CREATE_MIGRATIONS_TABLE);
    const done = await pglite.query<{ name: string }>('SELECT name FROM schema_migrations');
    const pending = pendingMigrations(
      await readMigrations(migrationsDir),
      done.rows.map((row) => row.name),
    );
    for (const file of pending) {
      try {
        await pglite.transaction(async (tx) => {
          await tx.exec(file.sql);
          await tx.query(RECORD_MIGRATION, [file.name]);
        });
      } catch (error) {
        throw new Error(`migration ${file.name} failed: ${(error as Error).message}`, { cause: error });
      }
    }
    return pending.map((file) => file.name);
  }

  const db: Database = {
    kind: 'pglite',
    async query<T>(text: string, params?: unknown[]) {
      return tracedQuery(text, async () => wrapResult<T>(await pglite.query<T>(text, params)));
    },

    transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      return pglite.transaction((tx) => fn(sqlOf(tx)));
    },

    copyRows(table, columns, rows) {
      return db.copyText(table, columns, copyChunks(rows, columns.length));
    },

    copyText(table, columns, chunks) {
      const statement = copyStatement(table, columns, "'/dev/blob'");
      return pglite.transaction(async (tx) => {
        let written = 0;
        let parts: string[] = [];
        let size = 0;
        for await (const chunk of chunks) {
          parts.push(chunk);
          size += chunk.length;
          // Each blob must end at a row boundary: cut after the chunk's last newline and
          // carry the rest (a chunk without one keeps accumulating).
          const end = size >= BLOB_BATCH_SIZE ? chunk.lastIndexOf('\n') + 1 : 0;
          if (end > 0) {
            const rest = chunk.slice(end);
            parts[parts.length - 1] = chunk.slice(0, end);
            written += await copyBatch(tx, statement, parts);
            parts = rest === '' ? [] : [rest];
            size = rest.length;
          }
        }
        if (parts.length > 0) written += await copyBatch(tx, statement, parts);
        return written;
      });
    },

    migrate() {
      // One process: an in-process queue does what the advisory lock does for PostgreSQL.
      const run = migrating.then(applyPending);
      migrating = run.catch(() => undefined);
      return run;
    },

    async ping() {
      await pglite.query('SELECT 1');
    },

    close() {
      closing ??= pglite.close();
      return closing;
    },
  };
  return db;
}
