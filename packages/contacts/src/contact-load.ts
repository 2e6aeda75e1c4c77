/**
 * Bulk writer for an import into an empty contact store (the first load, and every load
 * after the store was emptied), and likewise for an empty `property_records` (the roll
 * import; a BulkTarget says which table, its columns, its unique key and how rows are
 * moved in when the swap cannot happen; its load table is `property_records_load_*`, and of
 * a parcel repeated in the file the last record stays). Maintaining `contacts`' five indexes
 * row by row is most of an import's PostgreSQL time (about 7.5 of 10 µs a row; packages/contacts/BENCHMARKS.md),
 * while building the same indexes once over the loaded rows costs about 2.5 µs a row. So
 * the rows are COPYed into a new table, `contacts_load_*` (created LIKE contacts: same
 * columns, defaults and id sequence) that has only the indexes cheap to keep up while
 * it fills — the primary key and the hash indexes (keptUp) —, and at the end:
 *
 * 1. the other indexes of `contacts` are built on it, as the catalogue defines them
 *    (pg_get_indexdef, so a later migration's index comes along), the longest builds first:
 *    rows repeated in the file fail the row_hash unique index, are deleted (the first
 *    occurrence, lowest id, stays) and reported as duplicates, and the index is built again;
 * 2. it is ANALYZEd, so the first lookup plans with statistics (storage/statistics.ts),
 *    with the table's per-column statistics targets (migration 104: none for the columns
 *    no query searches by), which LIKE does not copy;
 * 3. it replaces `contacts` in one short transaction: ACCESS EXCLUSIVE lock on contacts,
 *    check it is still empty, hand the id sequence over, drop the empty table, rename the
 *    load table and its indexes and constraints to the names of the ones it replaces.
 *
 * Lookups meanwhile read the (empty) contacts table as before; the rows appear all at once
 * when the import ends instead of batch by batch, and an interrupted import stores
 * nothing (it leaves `contacts_load_*` behind, safe to drop; running it again loads it all).
 * If contacts is no longer empty at step 3 (another import got there first), its lock
 * cannot be had within LOCK_TIMEOUT, something depends on the table (a view), or the
 * importing role may not drop it (not its owner), the loaded rows are moved in with `INSERT … SELECT … ON CONFLICT (row_hash) DO NOTHING`
 * instead, as the staged import does, and are counted by what that stores.
 * The swapped-in table belongs to the role that ran the import and carries none of the old
 * table's grants (this project's roles own what they use; see docs/contact-data.md).
 * `bulkLoadable` says whether the table's shape allows the swap at all (no foreign key
 * pointing at it, no trigger, only plain, primary-key and unique indexes); otherwise the
 * import uses the staged writer (contact-stage.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Database, Sql } from '@skiptrace/storage';
import type { BatchWritten, ContactWriter } from './contact-stage.ts';
import { moveStagedSql, STAGE_COLUMNS } from './contact-stage.ts';

/** The table a bulk load fills, and what it needs to know about it. */
export interface BulkTarget {
  /** The table the load table takes the place of. */
  table: string;
  /** COPY columns, in the order of the COPY text. */
  columns: readonly string[];
  /** The unique column rows repeated in the file collide on. */
  key: string;
  /**
   * Which row of several with the same key stays: the first (contacts: a repeated row is
   * a duplicate of the first) or the last (property records: a newer record of the same
   * parcel replaces the older one). The others are deleted and counted as duplicates.
   */
  keep: 'first' | 'last';
  /**
   * `INSERT … SELECT … ON CONFLICT` moving a load table's rows into the table when the
   * swap cannot happen; its row count is the number of rows stored (new or changed).
   */
  moveSql(loadTable: string): string;
  /**
   * Whether the primary key and the hash indexes are kept up during the load (keptUp)
   * rather than built at the end: measured worth it for people (600,000 rows), not for a
   * roll (96,563 parcels: its index builds take 0.1 s; see docs/benchmarks-history.md note 7).
   */
  keepIndexesUp: boolean;
}

/** The contact store: the first occurrence of a row_hash stays, as the staged import keeps it. */
export const CONTACTS_TARGET: BulkTarget = {
  table: 'contacts',
  columns: STAGE_COLUMNS,
  key: 'row_hash',
  keep: 'first',
  moveSql: moveStagedSql,
  keepIndexesUp: true,
};

/** SQLSTATEs handled here. */
const UNIQUE_VIOLATION = '23505';
const LOCK_NOT_AVAILABLE = '55P03';
const DEPENDENT_OBJECTS_STILL_EXIST = '2BP01';
const INSUFFICIENT_PRIVILEGE = '42501';

/** How long the swap waits for lookups in progress to let go of contacts. */
export const LOCK_TIMEOUT = '5s';

/** maintenance_work_mem of each index build of a small load (see build). */
const BUILD_MEMORY = '4MB';
/**
 * Loads up to this many rows build their indexes in BUILD_MEMORY without parallel workers
 * (measured at 600,000 rows); larger ones keep the server's own settings: a 4 MB sort of
 * tens of millions of keys needs extra merge passes, and a server with more cores than
 * lanes builds one index with several workers.
 */
const SMALL_BUILD_ROWS = 2_000_000;

/** An index of contacts as the catalogue defines it. */
interface IndexDef {
  name: string;
  def: string;
  /** 'p' primary key, 'u' unique constraint, null a plain (possibly unique) index. */
  constraint: 'p' | 'u' | null;
  unique: boolean;
}

/** `CREATE [UNIQUE] INDEX name ON [ONLY] schema.table USING …` as pg_get_indexdef writes it. */
const INDEX_DEF = /^CREATE (UNIQUE )?INDEX (\S+) ON (?:ONLY )?(\S+) (USING .*)$/s;

function sqlState(error: unknown): unknown {
  return (error as { code?: unknown }).code;
}

async function indexesOf(db: Sql, target: string): Promise<IndexDef[]> {
  const { rows } = await db.query<{ name: string; def: string; contype: string | null; unique: boolean }>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def, c.contype, x.indisunique AS unique
     FROM pg_index x
     JOIN pg_class i ON i.oid = x.indexrelid
     LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid
     WHERE x.indrelid = $1::regclass
     ORDER BY x.indisunique DESC, i.relname`,
    [target],
  );
  return rows.map(({ name, def, contype, unique }) => {
    if (contype !== null && contype !== 'p' && contype !== 'u') {
      throw new Error(`${target} index ${name} backs a constraint of type ${contype}`);
    }
    if (!INDEX_DEF.test(def)) throw new Error(`${target} index ${name}: unexpected definition ${def}`);
    return { name, def, constraint: contype, unique };
  });
}

/** The index as defined, under another name, on another table. */
function createIndexSql(index: IndexDef, name: string, table: string): string {
  const [, unique = '', , , using] = INDEX_DEF.exec(index.def)!;
  return `CREATE ${unique}INDEX ${name} ON ${table} ${using}`;
}

/**
 * Whether an index is kept up row by row during the load instead of built at the end:
 * the primary key (ids come in order: each insert goes to the rightmost leaf) and the hash
 * indexes (a hash build inserts row by row anyway). The COPYs run beside Node's parsing,
 * which leaves the database's core partly idle; the builds at the end are all that
 * PostgreSQL does then. (The unique ones other than the key must wait: a repeated row
 * would fail its batch's COPY. The btrees are sorted once at the end, cheaper than
 * inserting in key order row by row.) 600,000 person rows: about 1.7 s of CPU out of the
 * end's index builds.
 */
function keptUp(index: IndexDef): boolean {
  return index.constraint === 'p' || / USING hash /.test(index.def);
}

/**
 * Whether the table (contacts by default) is empty and shaped for the bulk load's swap:
 * nothing references it by foreign key, no user trigger, only indexes this module can
 * rebuild. An import that finds rows (or an unusual table) uses its staged writer instead.
 */
export async function bulkLoadable(db: Sql, target = 'contacts'): Promise<boolean> {
  const { rows } = await db.query<{ empty: boolean; blocked: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM ${target}) AS empty,
            EXISTS (SELECT 1 FROM pg_constraint WHERE confrelid = $1::regclass)
              OR EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal) AS blocked`,
    [target],
  );
  if (!rows[0]!.empty || rows[0]!.blocked) return false;
  try {
    await indexesOf(db, target);
    return true;
  } catch {
    return false;
  }
}

export interface BulkLoad extends ContactWriter {
  /**
   * Builds the indexes, analyzes and puts the loaded rows in place of the table (or moves
   * them in when it is no longer empty). Call after flush. Reports the rows found to
   * repeat earlier ones through onWritten as `{ staged: 0, inserted: -n }`. Resolves true
   * when the load table became the table (already analyzed), false when its rows were
   * moved into it (the caller then refreshes statistics as after a staged import).
   */
  finish(): Promise<boolean>;
}

export async function createBulkLoad(
  db: Database,
  onWritten: (batch: BatchWritten) => void,
  depth = 2,
  into: BulkTarget = CONTACTS_TARGET,
): Promise<BulkLoad> {
  const target = into.table;
  const table = `${target}_load_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await db.query(`CREATE TABLE ${table} (LIKE ${target} INCLUDING ALL EXCLUDING INDEXES)`);
  // LIKE does not copy the columns' statistics targets (a migration sets 0 on the columns
  // no query searches by, so that ANALYZE skips them): the load table takes them over.
  const targets = await db.query<{ name: string; stattarget: number }>(
    `SELECT quote_ident(attname) AS name, attstattarget AS stattarget FROM pg_attribute
     WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attstattarget >= 0`,
    [target],
  );
  if (targets.rows.length > 0) {
    await db.query(
      `ALTER TABLE ${table} ${targets.rows.map((c) => `ALTER COLUMN ${c.name} SET STATISTICS ${c.stattarget}`).join(', ')}`,
    );
  }
  const slots: Promise<void>[] = Array.from({ length: depth }, () => Promise.resolve());
  let next = 0;
  let loaded = 0;
  // The table's indexes, each built on the load table under a temporary name: the primary
  // key and the hash indexes now, kept up by the COPYs (see keptUp), the others at the end.
  const indexes = await indexesOf(db, target);
  const temporary = new Map(indexes.map((index, i) => [index, `${table}_${i}`]));
  const kept = into.keepIndexesUp ? indexes.filter(keptUp) : [];
  for (const index of kept) await db.query(createIndexSql(index, temporary.get(index)!, table));

  async function copy(chunks: AsyncIterable<string>): Promise<void> {
    const written = await db.copyText(table, [...into.columns], chunks);
    loaded += written;
    onWritten({ staged: written, inserted: written });
  }

  /** Deletes every row whose key another row has (the first or the last stays: into.keep); returns how many. */
  async function dropRepeats(): Promise<number> {
    const order = into.keep === 'first' ? 'id' : 'id DESC';
    const { rowCount } = await db.query(
      `DELETE FROM ${table} WHERE id IN (
         SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY ${into.key} ORDER BY ${order}) AS n FROM ${table}) r
         WHERE n > 1)`,
    );
    return rowCount;
  }

  /** Builds one of contacts' indexes on the load table under a temporary name. */
  async function build(index: IndexDef, temporary: string): Promise<void> {
    await db.transaction(async (tx) => {
      // The lanes are the parallelism (one build per core): parallel workers on top of them
      // only crowd the two cores. And a sort in 4 MB runs merged from disk took less CPU
      // than one 50 MB in-memory sort: 600,000 person rows' (state, city, house number) btree
      // 0.87 against 1.15 s alone; the whole index phase about 0.3 s shorter (owner-import
      // bench, alternating runs; docs/benchmarks-history.md note 7).
      if (loaded <= SMALL_BUILD_ROWS) {
        await tx.query('SET LOCAL max_parallel_maintenance_workers = 0');
        await tx.query(`SET LOCAL maintenance_work_mem = '${BUILD_MEMORY}'`);
      }
      await tx.query(createIndexSql(index, temporary, table));
    });
  }

  /**
   * Builds every index, `depth` at a time (each build is one backend's sort), the longest
   * first. A repeated row fails the row_hash unique index: the repeats are deleted once
   * and the index built again. Returns the number of rows deleted.
   */
  async function buildIndexes(indexes: IndexDef[], temporary: Map<IndexDef, string>): Promise<number> {
    let repeats: Promise<number> | undefined;
    // Longest builds first, so that the two lanes end together: the multi-column btrees
    // (a sort of every row's key), then the hash indexes (one insert per row), then the
    // unique ones (600,000 person rows: about 1.2, 0.9 / 0.8, 0.75 / 0.45, 0.3 s). A
    // unique build that fails on repeated rows after others were built is fine: the
    // delete keeps those indexes up to date.
    const weight = (index: IndexDef): number => (index.unique ? 2 : / USING hash /.test(index.def) ? 1 : 0);
    const queue = [...indexes].sort((a, b) => weight(a) - weight(b));
    const lane = async (): Promise<void> => {
      for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
        try {
          await build(index, temporary.get(index)!);
        } catch (error) {
          if (sqlState(error) !== UNIQUE_VIOLATION || repeats !== undefined) throw error;
          // The delete waits for builds in progress on other lanes (their SHARE lock).
          repeats = dropRepeats();
          await repeats;
          await build(index, temporary.get(index)!);
        }
      }
    };
    await Promise.all(Array.from({ length: depth }, lane));
    return (await repeats) ?? 0;
  }

  /** Puts the load table in place of the target; false when the target must be merged into instead. */
  async function swap(indexes: IndexDef[], temporary: Map<IndexDef, string>): Promise<boolean> {
    try {
      return await db.transaction(async (tx) => {
        await tx.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        await tx.query(`LOCK TABLE ${target} IN ACCESS EXCLUSIVE MODE`);
        const { rows } = await tx.query<{ filled: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${target}) AS filled`);
        if (rows[0]!.filled) return false;
        // A migration that changed the table's indexes since they were read: merge instead.
        const now = await indexesOf(tx, target);
        if (JSON.stringify(now) !== JSON.stringify(indexes)) return false;
        // The id sequence (bigserial) belongs to the table's id and would go with it.
        const owned = await tx.query<{ seq: string; col: string }>(
          `SELECT d.objid::regclass::text AS seq, a.attname AS col
           FROM pg_depend d
           JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
           JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
           WHERE d.refobjid = $1::regclass AND d.deptype = 'a'`,
          [target],
        );
        for (const { seq, col } of owned.rows) await tx.query(`ALTER SEQUENCE ${seq} OWNED BY ${table}.${col}`);
        await tx.query(`DROP TABLE ${target}`);
        await tx.query(`ALTER TABLE ${table} RENAME TO ${target}`);
        // The indexes take the names of the ones dropped; the primary key and unique
        // constraints are made from theirs (no scan: the columns are already NOT NULL).
        for (const index of indexes) {
          const name = temporary.get(index)!;
          const kind = index.constraint === 'p' ? 'PRIMARY KEY' : 'UNIQUE';
          await tx.query(
            index.constraint === null
              ? `ALTER INDEX ${name} RENAME TO ${index.name}`
              : `ALTER TABLE ${target} ADD CONSTRAINT ${index.name} ${kind} USING INDEX ${name}`,
          );
        }
        return true;
      });
    } catch (error) {
      const state = sqlState(error);
      if (state === LOCK_NOT_AVAILABLE || state === DEPENDENT_OBJECTS_STILL_EXIST || state === INSUFFICIENT_PRIVILEGE) {
        return false;
      }
      throw error;
    }
  }

  return {
    async load(chunks) {
      const slot = next;
      next = (next + 1) % depth;
      const iterator = chunks[Symbol.asyncIterator]();
      const first = await iterator.next();
      if (first.done) return;
      await slots[slot];
      // The batch is COPYed as it is normalised: PostgreSQL parses and stores its rows
      // meanwhile, and each chunk is garbage once sent. (Read whole first, a batch of
      // 10,000 person rows — 2.2 MB of text — outlived young-generation collections, and
      // the copying of it was a tenth of the import's Node time.) Nothing needs it again:
      // a load table has no unique index to fail on until the end.
      let read!: () => void;
      const consumed = new Promise<void>((resolve) => (read = resolve));
      async function* batch(): AsyncGenerator<string> {
        try {
          yield first.value;
          for (let chunk = await iterator.next(); !chunk.done; chunk = await iterator.next()) yield chunk.value;
        } finally {
          read();
        }
      }
      const writing = copy(batch());
      // Until awaited (next load into this slot, or flush), not an unhandled rejection.
      writing.catch(() => undefined);
      slots[slot] = writing;
      // Resolves once the batch has been read (its COPY may still be finishing), or as
      // soon as the COPY failed.
      await Promise.race([consumed, writing]);
    },
    async flush() {
      await Promise.all(slots);
    },
    async finish() {
      if (loaded === 0) return false;
      const repeats = await buildIndexes(
        indexes.filter((index) => !kept.includes(index)),
        temporary,
      );
      if (repeats > 0) onWritten({ staged: 0, inserted: -repeats });
      await db.query(`ANALYZE ${table}`);
      if (await swap(indexes, temporary)) return true;
      // The table has rows now (or could not be swapped): move the rows in, as the staged import does.
      const { rowCount } = await db.query(into.moveSql(table));
      onWritten({ staged: 0, inserted: rowCount - (loaded - repeats) });
      return false;
    },
    async dispose() {
      await Promise.allSettled(slots);
      await db.query(`DROP TABLE IF EXISTS ${table}`);
    },
  };
}
