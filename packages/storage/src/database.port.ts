/**
 * The store port. PostgreSQL (node-postgres pool) in production, PGlite (Postgres
 * compiled to WASM, in-process) in the one-process mode. Both run the same SQL and the
 * same migrations (packages/storage/migrations/*.sql, applied in file-name order).
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
  /** Applies pending migrations; safe when several processes start at once (advisory lock). */
  migrate(): Promise<string[]>;
  /** Resolves when a trivial query succeeds (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}
