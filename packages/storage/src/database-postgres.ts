/**
 * The production Database: a node-postgres Pool. Connection failures surface as
 * DatabaseUnavailableError; broken connections are discarded so the pool recovers by
 * itself once PostgreSQL is back (no restart of the process or of this object).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { arrayLiteral } from './array-literal.ts';
import { copyChunks, copyStatement } from './copy-text.ts';
import type { Database, QueryResult, Sql } from './database.port.ts';
import {
  CREATE_MIGRATIONS_TABLE,
  DEFAULT_MIGRATIONS_DIR,
  MIGRATION_LOCK_KEY,
  RECORD_MIGRATION,
  pendingMigrations,
  readMigrations,
} from './migrations.ts';
import { isUnavailable, mapErrors } from './pg-errors.ts';
import { addPoolSource } from '@skiptrace/runtime';
import { tracedQuery } from './observe.ts';
import { preparedName } from './prepared.ts';
import { pgTypes } from './type-parsers.ts';

/** Structural subset of a pino logger; the host decides where logs go. */
export interface StorageLogger {
  warn(meta: object, message?: string): void;
  info(meta: object, message?: string): void;
}

export interface PostgresDatabaseOptions {
  url: string;
  /** Pool size (connections); default 10. */
  max?: number;
  /** Time to wait for a new connection before failing (ms); default 5000. */
  connectTimeoutMs?: number;
  /** Directory of `*.sql` migrations; default packages/storage/migrations. */
  migrationsDir?: string;
  logger?: StorageLogger;
}

function wrapResult<T>(result: pg.QueryResult | pg.QueryResult[]): QueryResult<T> {
  // Several statements without parameters give one result each; keep the last, as psql shows.
  const last = Array.isArray(result) ? result.at(-1) : result;
  if (!last) return { rows: [], rowCount: 0 };
  return { rows: last.rows as T[], rowCount: last.rowCount ?? last.rows.length };
}

/**
 * The query as node-postgres takes it: named when the text was marked by prepared(), its
 * flat array parameters already written as literals (arrayLiteral).
 */
function statement(text: string, params: unknown[] | undefined): pg.QueryConfig {
  const name = preparedName(text);
  const values = params?.map((value) => (Array.isArray(value) ? (arrayLiteral(value) ?? value) : value));
  return name === undefined ? { text, values } : { name, text, values };
}

export function createPostgresDatabase(options: PostgresDatabaseOptions): Database {
  const { logger, migrationsDir = DEFAULT_MIGRATIONS_DIR } = options;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    types: pgTypes,
  });
  // An idle client whose server went away emits 'error' on the pool; pg-pool has already
  // removed it, so logging is all that is left to do (unhandled, it would crash the process).
  pool.on('error', (error) => logger?.warn({ err: error }, 'postgres: idle connection lost'));
  const removePoolSource = addPoolSource(() => pool.waitingCount);
  let closing: Promise<void> | undefined;

  /**
   * Checks out a client for fn. A client that broke meanwhile, whose failure leaves it in
   * doubt (discardOnError) or that fn discards, is destroyed instead of going back to the pool.
   */
  async function withClient<T>(
    fn: (client: pg.PoolClient, discard: (reason: unknown) => void) => Promise<T>,
    discardOnError = false,
  ): Promise<T> {
    return mapErrors(async () => {
      const client = await pool.connect();
      let broken: Error | undefined;
      const onError = (error: unknown): void => {
        broken ??= error instanceof Error ? error : new Error(String(error));
      };
      client.on('error', onError);
      try {
        return await fn(client, onError);
      } catch (error) {
        if (discardOnError || isUnavailable(error)) broken ??= error as Error;
        throw error;
      } finally {
        client.off('error', onError);
        client.release(broken ?? false);
      }
    });
  }

  const db: Database = {
    kind: 'postgres',
    async query<T>(text: string, params?: unknown[]) {
      return tracedQuery(text, () => mapErrors(async () => wrapResult<T>(await pool.query(statement(text, params)))));
    },

    transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      return withClient(async (client, discard) => {
        const tx: Sql = {
          query: <R>(text: string, params?: unknown[]) =>
            tracedQuery(text, () => mapErrors(async () => wrapResult<R>(await client.query(statement(text, params))))),
        };
        await client.query('BEGIN');
        try {
          const result = await fn(tx);
          await client.query('COMMIT');
          return result;
        } catch (error) {
          // A client whose ROLLBACK failed is in an unknown state: never reuse it.
          await client.query('ROLLBACK').catch(discard);
          throw error;
        }
      });
    },

    copyRows(table, columns, rows) {
      return db.copyText(table, columns, copyChunks(rows, columns.length));
    },

    copyText(table, columns, chunks) {
      return withClient(async (client) => {
        const stream = client.query(copyFrom(copyStatement(table, columns, 'STDIN')));
        // pipeline waits for 'drain' whenever the socket is behind (back-pressure).
        await pipeline(Readable.from(chunks), stream);
        return stream.rowCount;
      }, true);
    },

    migrate() {
      return withClient(async (client, discard) => {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        try {
          await client.query(CREATE_MIGRATIONS_TABLE);
          const done = await client.query<{ name: string }>('SELECT name FROM schema_migrations');
          const pending = pendingMigrations(
            await readMigrations(migrationsDir),
            done.rows.map((row) => row.name),
          );
          for (const file of pending) {
            await client.query('BEGIN');
            try {
              await client.query(file.sql);
              await client.query(RECORD_MIGRATION, [file.name]);
              await client.query('COMMIT');
            } catch (error) {
              await client.query('ROLLBACK').catch(discard);
              if (isUnavailable(error)) throw error;
              throw new Error(`migration ${file.name} failed: ${(error as Error).message}`, { cause: error });
            }
            logger?.info({ migration: file.name }, 'postgres: migration applied');
          }
          return pending.map((file) => file.name);
        } finally {
          // If unlocking fails, ending the session (discarding the client) releases the lock.
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(discard);
        }
      });
    },

    async ping() {
      await db.query('SELECT 1');
    },

    close() {
      if (!closing) removePoolSource();
      closing ??= pool.end();
      return closing;
    },
  };
  return db;
}
