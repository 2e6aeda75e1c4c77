import { DependencyUnavailableError } from '@skiptrace/runtime';
/**
 * The store port. PostgreSQL (node-postgres pool) in production, PGlite (Postgres
 * compiled to WASM, in-process) in the one-process mode. Both run the same SQL and the
 * same migrations (packages/storage/migrations/*.sql, applied in file-name order).
 *
 * Value types are the same from both adapters (tested by test/database.contract.ts):
 * - int8 / bigint / bigserial → string (node-postgres default; JS numbers lose precision
 *   above 2^53), int8[] → string[]. int2/int4/float → number; numeric → string.
 * - timestamptz → Date; timestamp (without time zone) → Date read as UTC in both.
 *   Prefer timestamptz. date → 'YYYY-MM-DD' string (a calendar day has no instant).
 * - json / jsonb → parsed value. As parameters pass objects (serialized as JSON); a JS
 *   array parameter becomes a PostgreSQL array in node-postgres, so JSON.stringify
 *   arrays bound for jsonb.
 *
 * query() takes one statement: PGlite rejects several in one call (node-postgres runs them
 * when there are no parameters). Migration files may hold any number of statements.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface Database extends Sql {
  readonly kind: 'postgres' | 'pglite';
  /** Runs fn inside BEGIN/COMMIT on one connection; rolls back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Bulk-loads rows into table(columns) with COPY FROM STDIN (text format);
   * values are strings, numbers, booleans, null or objects (written as JSON). Returns rows written.
   */
  copyRows(table: string, columns: string[], rows: AsyncIterable<unknown[]> | Iterable<unknown[]>): Promise<number>;
  /**
   * Bulk-loads text that is already in COPY text format (values tab-separated and escaped
   * as encodeCopyValue does, `\N` for NULL, each row ending in a newline) into
   * table(columns). Chunks may split a row anywhere except inside a surrogate pair (each
   * chunk is encoded to UTF-8 on its own); nothing is buffered beyond what the adapter
   * sends at once. For callers that encode their rows themselves, so a row costs
   * one string and a chunk one await. Writes all or nothing; returns rows written.
   */
  copyText(table: string, columns: string[], chunks: AsyncIterable<string> | Iterable<string>): Promise<number>;
  /** Applies pending migrations; safe when several processes start at once (advisory lock). */
  migrate(): Promise<string[]>;
  /** Resolves when a trivial query succeeds (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The database cannot be reached now: the API answers 503 with Retry-After. */
export class DatabaseUnavailableError extends DependencyUnavailableError {
  override name = 'DatabaseUnavailableError';
  constructor(message: string, options?: ErrorOptions) {
    super('the database', message, options);
  }
}
