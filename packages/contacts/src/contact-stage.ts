/**
 * Bulk writer for a contact store that already has rows (an empty one is filled by
 * contact-load.ts, which builds the indexes once at the end). Until a batch meets a row already stored, each batch is COPYed
 * straight into `contacts`: one statement, heap rows written in bulk, no second copy of
 * the data. COPY fails as a whole on a duplicate row_hash (unique_violation; nothing of the
 * batch stays), so each batch's COPY text is kept in memory until its COPY has committed
 * (about 2.2 MB for 10,000 demo rows) and a failed batch is written again the staged way:
 * COPY into an UNLOGGED staging table, then `INSERT … SELECT … ON CONFLICT (row_hash) DO
 * NOTHING`, which every later batch of the import then uses too (see `conflicts`). So a row
 * already stored (same file imported again, or the same row twice) is counted as a
 * duplicate instead of failing the import, exactly as before.
 *
 * Work overlaps: while PostgreSQL writes batch N (on its own connection), batch N+1 is
 * normalised and its COPY started on another connection, `depth` batches in flight at most.
 * The staging tables (one per slot) are private to one import (random name) and dropped
 * at the end; an import killed mid-way leaves them behind (`contacts_stage_*`, safe to
 * drop). Each batch commits on its own: an interrupted import keeps what it wrote, and
 * running it again adds only the rest.
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
  'person_key',
  'middle_name',
  'suffix',
  'birth_year',
  'deceased',
  'first_seen',
  'last_seen',
] as const;

const COLUMN_LIST = STAGE_COLUMNS.join(', ');

/** Column types of a staging table (COPY text is read by them, INSERT … SELECT needs no cast). */
export const STAGE_TYPES: Record<(typeof STAGE_COLUMNS)[number], string> = {
  ...(Object.fromEntries(STAGE_COLUMNS.map((c) => [c, 'text'])) as Record<(typeof STAGE_COLUMNS)[number], string>),
  phones: 'json',
  emails: 'json',
  birth_year: 'smallint',
  deceased: 'boolean',
};

/** What a newer row of the same person and dwelling replaces (contact-row.ts: its row_hash is theirs). */
const UPDATED = STAGE_COLUMNS.filter(
  (c) => c !== 'row_hash' && c !== 'person_key' && c !== 'address_key' && c !== 'unit_key',
);

/**
 * Moves staged rows into contacts. A row already stored is a duplicate — except a person's
 * row (person_key), which takes the newer file's names, phones and dates: importing a newer
 * file of the same source updates its people instead of adding them again. One row per
 * row_hash of the batch (a file naming the same person at the same door twice: one of them).
 * Rows go in one global order (row_hash): two moves holding the same rows then wait for
 * each other's uncommitted row in the same order and cannot deadlock.
 */
export function moveStagedSql(table: string): string {
  // json has no equality operator: phones and e-mails are compared as text (the import
  // writes them in one form, so equal values are equal texts).
  const compared = (side: string) =>
    UPDATED.map((c) => (STAGE_TYPES[c] === 'json' ? `${side}.${c}::text` : `${side}.${c}`)).join(', ');
  return `INSERT INTO contacts (${COLUMN_LIST})
    SELECT DISTINCT ON (row_hash) ${COLUMN_LIST} FROM ${table} ORDER BY row_hash
    ON CONFLICT (row_hash) DO UPDATE SET (${UPDATED.join(', ')}, imported_at) = (${UPDATED.map((c) => `EXCLUDED.${c}`).join(', ')}, now())
    WHERE contacts.person_key <> '' AND (${compared('contacts')}) IS DISTINCT FROM (${compared('EXCLUDED')})`;
}

/** SQLSTATE of a unique constraint violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * SQLSTATE of a deadlock. Two batches in flight at once that share rows in crossed order
 * (a file repeating rows out of order across a batch boundary) can each wait for the
 * other's uncommitted row_hash; PostgreSQL then aborts one of them, as a whole.
 */
const DEADLOCK_DETECTED = '40P01';

/** Attempts of one move that lost a deadlock before the import gives up. */
const MAX_DEADLOCK_RETRIES = 5;

function sqlState(error: unknown): unknown {
  return (error as { code?: unknown }).code;
}

export interface BatchWritten {
  /** Rows of the batch. */
  staged: number;
  /**
   * Rows of it stored; the rest were duplicates. The bulk load's final report may correct
   * earlier ones: `{ staged: 0, inserted: -n }` when n rows counted as stored turned out to
   * repeat others (contact-load.ts).
   */
  inserted: number;
}

/** Writes batches of contact COPY text into the store: contact-stage.ts or contact-load.ts. */
export interface ContactWriter {
  /**
   * Takes one batch (chunks of COPY text in STAGE_COLUMNS order) and resolves once it has
   * been read and handed to the database; writing it into `contacts` then goes on in the
   * background. Until a duplicate has been met the batch is read whole first (it is kept
   * for a retry); after that it is COPYed into a staging table as it is produced (nothing
   * buffered beyond one chunk) and resolves when staged.
   */
  load(chunks: AsyncIterable<string>): Promise<void>;
  /** Waits for every write in progress; rejects if one failed. */
  flush(): Promise<void>;
  /** Drops the staging tables (call in finally). */
  dispose(): Promise<void>;
}

export async function createContactStage(
  db: Database,
  onWritten: (batch: BatchWritten) => void,
  depth = 2,
): Promise<ContactWriter> {
  const suffix = `${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const tables = Array.from({ length: depth }, (_, i) => `contacts_stage_${suffix}_${i}`);
  const columns = STAGE_COLUMNS.map((c) => `${c} ${STAGE_TYPES[c]}`);
  for (const table of tables) await db.query(`CREATE UNLOGGED TABLE ${table} (${columns.join(', ')})`);
  const slots: Promise<void>[] = tables.map(() => Promise.resolve());
  let next = 0;

  /**
   * Set once a batch met a row already stored (or lost a deadlock to another batch); from
   * then on every batch goes through a staging table and is moved with ON CONFLICT. Until
   * then batches are COPYed straight into `contacts`: about 1.1 µs a row of PostgreSQL
   * CPU less than staging them (10.3 against 11.4 µs with btree indexes, measured; no
   * second COPY and read of the rows, and COPY writes heap tuples in bulk where INSERT …
   * SELECT writes them one at a time). The failed attempts waste at most `depth` batches
   * of work per import (dead tuples for autovacuum).
   */
  let conflicts = false;

  /** Moves a staged batch into contacts, skipping rows whose row_hash is stored. */
  async function insert(table: string): Promise<number> {
    // A deadlock with a direct COPY still in flight (file order) stays possible; the retry covers it.
    const statement = moveStagedSql(table);
    for (let attempt = 1; ; attempt++) {
      try {
        return (await db.query(statement)).rowCount;
      } catch (error) {
        // The statement is atomic and idempotent (DO NOTHING over the same staged rows):
        // after losing a deadlock it is simply run again, since the other side went on.
        if (sqlState(error) !== DEADLOCK_DETECTED || attempt >= MAX_DEADLOCK_RETRIES) throw error;
      }
    }
  }

  async function move(table: string, staged: number): Promise<void> {
    const inserted = await insert(table);
    await db.query(`TRUNCATE ${table}`);
    onWritten({ staged, inserted });
  }

  /** COPYs a batch into contacts; if it meets a stored row, writes it via the slot's staging table. */
  async function copyDirect(table: string, text: string[]): Promise<void> {
    try {
      const written = await db.copyText('contacts', [...STAGE_COLUMNS], text);
      onWritten({ staged: written, inserted: written });
    } catch (error) {
      const state = sqlState(error);
      if (state !== UNIQUE_VIOLATION && state !== DEADLOCK_DETECTED) throw error;
      conflicts = true;
      await move(table, await db.copyText(table, [...STAGE_COLUMNS], text));
    }
  }

  /** Starts a write in a slot; it is awaited by the next load into that slot, or by flush. */
  function occupy(slot: number, writing: Promise<void>): void {
    // Until awaited, a failure must not count as an unhandled rejection.
    writing.catch(() => undefined);
    slots[slot] = writing;
  }

  return {
    async load(chunks) {
      const slot = next;
      next = (next + 1) % depth;
      const table = tables[slot]!;
      let source: AsyncIterable<string> | Iterable<string> = chunks;
      if (!conflicts) {
        // Read the whole batch before waiting for the slot: normalising it overlaps the
        // writes in flight, and the text is needed again if the direct COPY fails.
        const text: string[] = [];
        for await (const chunk of chunks) text.push(chunk);
        await slots[slot];
        if (text.length === 0) return;
        if (!conflicts) {
          occupy(slot, copyDirect(table, text));
          return;
        }
        // A batch in flight met a stored row while this one was read: stage it too.
        source = text;
      } else {
        await slots[slot];
      }
      const staged = await db.copyText(table, [...STAGE_COLUMNS], source);
      if (staged > 0) occupy(slot, move(table, staged));
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
