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
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * A fresh cluster (initdb's output, dumped before anything is written to it) from which
 * in-memory databases start: initdb costs 1.5–2 s of CPU a database, loading the dump about
 * 0.5 s, and tests start one per file or per test; a data directory's first start loads it
 * too. Kept between processes in the storage package's `node_modules/.cache`, named after
 * the PGlite build that made it; written once (to a temporary name, then renamed), read by
 * every later process. Undefined when it can be neither read nor made: each database then
 * runs its own initdb.
 */
let freshCluster: Promise<Blob | undefined> | undefined;

/** Where the fresh cluster is kept (exported for its test). */
export function clusterPath(): string {
  const build = createHash('sha256').update(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  const name = `pglite-cluster-${build.digest('hex').slice(0, 16)}.tar`;
  return fileURLToPath(new URL(`../node_modules/.cache/skiptrace/${name}`, import.meta.url));
}

async function readOrMakeCluster(): Promise<Blob | undefined> {
  const path = clusterPath();
  try {
    return new Blob([await readFile(path)]);
  } catch {
    // Not made yet on this machine.
  }
  let cluster: Blob;
  try {
    const pglite = await PGlite.create();
    cluster = await pglite.dumpDataDir('none');
    await pglite.close();
  } catch {
    return undefined;
  }
  try {
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, new Uint8Array(await cluster.arrayBuffer()));
    await rename(partial, path);
  } catch {
    // A read-only install: this process keeps its own.
  }
  return cluster;
}

/** True when dir does not exist or holds nothing (a first start). */
async function isEmptyDir(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/**
 * A started PGlite: in dataDir as it is; in memory, or in a dataDir that does not exist yet
 * or is empty, from the fresh cluster (a first start of the one-process mode or the CLI:
 * 2.8 → 1.1 s).
 */
async function startPglite(dataDir: string | undefined): Promise<PGlite> {
  const where = dataDir === undefined ? {} : { dataDir };
  if (dataDir !== undefined && !(await isEmptyDir(dataDir))) return PGlite.create({ ...where, parsers: pgliteParsers });
  freshCluster ??= readOrMakeCluster();
  const loadDataDir = await freshCluster;
  if (loadDataDir !== undefined) {
    try {
      return await PGlite.create({ ...where, parsers: pgliteParsers, loadDataDir });
    } catch {
      // A damaged cache file: this database runs initdb (in a directory emptied again of
      // what the load left), the next one makes the file again.
      freshCluster = undefined;
      await rm(clusterPath(), { force: true }).catch(() => undefined);
      if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
    }
  }
  return PGlite.create({ ...where, parsers: pgliteParsers });
}

export function createPgliteDatabase(options: PgliteDatabaseOptions = {}): Database {
  const { migrationsDir = DEFAULT_MIGRATIONS_DIR } = options;
  const started = startPglite(options.dataDir);
  // Its failure reaches every caller; unawaited, it must not end the process.
  started.catch(() => undefined);
  let migrating: Promise<unknown> = Promise.resolve();
  let closing: Promise<void> | undefined;

  async function copyBatch(tx: Transaction, statement: string, parts: string[]): Promise<number> {
    const result = await tx.query(statement, [], { blob: new Blob(parts) });
    return result.affectedRows ?? 0;
  }

  async function applyPending(): Promise<string[]> {
    const pglite = await started;
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
      return tracedQuery(text, async () => wrapResult<T>(await (await started).query<T>(text, params)));
    },

    transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      return started.then((pglite) => pglite.transaction((tx) => fn(sqlOf(tx))));
    },

    copyRows(table, columns, rows) {
      return db.copyText(table, columns, copyChunks(rows, columns.length));
    },

    copyText(table, columns, chunks) {
      const statement = copyStatement(table, columns, "'/dev/blob'");
      return started.then((pglite) =>
        pglite.transaction(async (tx) => {
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
        }),
      );
    },

    migrate() {
      // One process: an in-process queue does what the advisory lock does for PostgreSQL.
      const run = migrating.then(applyPending);
      migrating = run.catch(() => undefined);
      return run;
    },

    async ping() {
      await (await started).query('SELECT 1');
    },

    close() {
      closing ??= started.then((pglite) => pglite.close());
      return closing;
    },
  };
  return db;
}
