/**
 * Bulk writer for contacts: each batch is COPYed into an UNLOGGED staging table and moved
 * into `contacts` with `INSERT … SELECT`, falling back to `… ON CONFLICT (row_hash) DO
 * NOTHING` once a batch meets a stored row (see `conflicts`), so a row already stored
 * (same file imported again, or the same row twice) is counted as a duplicate instead of
 * failing the import.
 *
 * Two staging tables are used in turn: while PostgreSQL moves batch N into `contacts`,
 * batch N+1 is parsed and COPYed into the other table as it is produced. The tables are private to one import
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

/** SQLSTATE of a unique constraint violation. */
const UNIQUE_VIOLATION = '23505';

export interface BatchWritten {
  staged: number;
  inserted: number;
}

export interface ContactStage {
  /**
   * COPYs rows (chunks of COPY text in STAGE_COLUMNS order) into a free staging table,
   * pulling them from the iterable as the database takes them (nothing is buffered beyond
   * one chunk), and resolves with the number staged. The move into `contacts` then runs
   * in the background.
   */
  load(chunks: AsyncIterable<string>): Promise<number>;
  /** Waits for every move in progress. */
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
  const columns = STAGE_COLUMNS.map((c) => `${c} ${c === 'phones' || c === 'emails' ? 'jsonb' : 'text'}`);
  for (const table of tables) await db.query(`CREATE UNLOGGED TABLE ${table} (${columns.join(', ')})`);
  const slots: Promise<void>[] = tables.map(() => Promise.resolve());
  let next = 0;

  /**
   * Set once a batch met a row already stored; from then on every batch is moved with
   * ON CONFLICT. Until then a plain INSERT is tried first: PostgreSQL's ON CONFLICT probes
   * the row_hash index before each insert and then inserts into it, about 2 µs a row of a
   * fresh import. A batch that hits a duplicate fails as a whole (unique_violation, nothing
   * of it stays) and is moved again with ON CONFLICT, so the outcome is the same; the
   * failed attempt wastes at most one batch per import.
   */
  let conflicts = false;

  async function insert(table: string): Promise<number> {
    const statement = `INSERT INTO contacts (${COLUMN_LIST}) SELECT ${COLUMN_LIST} FROM ${table}`;
    if (!conflicts) {
      try {
        return (await db.query(statement)).rowCount;
      } catch (error) {
        if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
        conflicts = true;
      }
    }
    return (await db.query(`${statement} ON CONFLICT (row_hash) DO NOTHING`)).rowCount;
  }

  async function move(table: string, staged: number): Promise<void> {
    const inserted = await insert(table);
    await db.query(`TRUNCATE ${table}`);
    onWritten({ staged, inserted });
  }

  return {
    async load(chunks) {
      const slot = next;
      next = (next + 1) % depth;
      await slots[slot];
      const table = tables[slot]!;
      const staged = await db.copyText(table, [...STAGE_COLUMNS], chunks);
      if (staged > 0) {
        const moving = move(table, staged);
        // Awaited by the next load into this slot, or by flush; until then not "unhandled".
        moving.catch(() => undefined);
        slots[slot] = moving;
      }
      return staged;
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
