/**
 * Bulk writer for contacts: each batch is COPYed into an UNLOGGED staging table and moved
 * into `contacts` with `INSERT … SELECT … ON CONFLICT (row_hash) DO NOTHING`, so a row
 * already stored (same file imported again, or the same row twice) is counted as a
 * duplicate instead of failing the COPY.
 *
 * Two staging tables are used in turn: while PostgreSQL moves batch N, batch N+1 is
 * already being copied and batch N+2 parsed. The tables are private to one import
 * (random name) and dropped at the end; an import killed mid-way leaves them behind
 * (`contacts_stage_*`, safe to drop). Each batch commits on its own: an interrupted import
 * keeps what it wrote, and running it again adds only the rest.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '@skiptrace/storage';

export const STAGE_COLUMNS = [
  'address_key',
  'unit_key',
  'first_name',
  'last_name',
  'first_norm',
  'last_norm',
  'street_address',
  'city',
  'state',
  'zip5',
  'phones',
  'emails',
  'source',
  'row_hash',
] as const;

const COLUMN_LIST = STAGE_COLUMNS.join(', ');

export interface BatchWritten {
  staged: number;
  inserted: number;
}

export interface ContactStage {
  /** Queues a batch; resolves once it is accepted (back-pressure: at most `depth` in flight). */
  write(rows: unknown[][]): Promise<void>;
  /** Waits for every queued batch. */
  flush(): Promise<void>;
  /** Drops the staging tables (call in finally). */
  dispose(): Promise<void>;
}

export async function createContactStage(
  db: Database,
  onWritten: (batch: BatchWritten) => void,
  depth = 2,
): Promise<ContactStage> {
  const suffix = `${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const tables = Array.from({ length: depth }, (_, i) => `contacts_stage_${suffix}_${i}`);
  for (const table of tables) {
    await db.query(
      `CREATE UNLOGGED TABLE ${table} (${STAGE_COLUMNS.map((c) => `${c} ${c === 'phones' || c === 'emails' ? 'jsonb' : 'text'}`).join(', ')})`,
    );
  }
  const slots: Promise<void>[] = tables.map(() => Promise.resolve());
  let next = 0;

  async function move(table: string, rows: unknown[][]): Promise<void> {
    const staged = await db.copyRows(table, [...STAGE_COLUMNS], rows);
    const result = await db.query(
      `INSERT INTO contacts (${COLUMN_LIST}) SELECT ${COLUMN_LIST} FROM ${table} ON CONFLICT (row_hash) DO NOTHING`,
    );
    await db.query(`TRUNCATE ${table}`);
    onWritten({ staged, inserted: result.rowCount });
  }

  return {
    async write(rows) {
      const slot = next;
      next = (next + 1) % depth;
      await slots[slot];
      const moving = move(tables[slot]!, rows);
      // Awaited later (next write to this slot, or flush); until then keep it from being "unhandled".
      moving.catch(() => undefined);
      slots[slot] = moving;
    },
    async flush() {
      await Promise.all(slots);
    },
    async dispose() {
      await Promise.allSettled(slots);
      await db.query(`DROP TABLE IF EXISTS ${tables.join(', ')}`);
    },
  };
}
