/**
 * The Database behaviour suite, run against every adapter (database-pglite.test.ts,
 * database-postgres.int.test.ts). Migration tests live in migrate.contract.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { encodeCopyValue } from '../src/copy-text.ts';
import { analyzeAfterLoad } from '../src/statistics.ts';
import type { Database } from '../src/database.port.ts';
import { describeContactsMigrationContract } from './contacts-migration.contract.ts';
import type { DatabaseHarness, TestStore } from './database-harness.ts';
import { describeMigrateContract } from './migrate.contract.ts';

const AWKWARD: unknown[][] = [
  [1, 'tab\there', { nested: { s: 'x\ty\nz' } }, '9007199254740993', true],
  [2, 'line\nbreak and\r\ncrlf', [1, 'two', null], '-1', false],
  [3, 'back\\slash \\N \\t literal', { quote: '"', backslash: '\\' }, '0', null],
  [4, 'unicode: é ß 漢字 🏠 \u2028', { emoji: '🏠' }, null, true],
  [5, '', {}, '42', false],
  [6, null, null, null, null],
  [7, '\\N', 42, '7', true],
];

/** Bulk rows get ids above BULK_OFFSET, clear of the other tests' rows. */
const BULK_OFFSET = 10_000;
/** copyText rows get ids above TEXT_OFFSET. */
const TEXT_OFFSET = 2_000_000;

const copyLine = (row: readonly unknown[]): string => `${row.map(encodeCopyValue).join('\t')}\n`;

/**
 * Cuts text into pieces of about `size` UTF-16 units wherever that falls (inside rows and
 * escapes), though not inside a surrogate pair: each piece is encoded to UTF-8 on its own.
 */
function* pieces(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length;) {
    let end = Math.min(text.length, i + size);
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end++;
    yield text.slice(i, end);
    i = end;
  }
}

async function* generateRows(count: number): AsyncGenerator<unknown[]> {
  for (let i = 1; i <= count; i++) {
    yield [BULK_OFFSET + i, `row ${i}`, { i }, String(i * 1_000_000_000), i % 2 === 0];
  }
}

export function describeDatabaseContract(harness: DatabaseHarness): void {
  describe(`Database contract (${harness.kind})`, () => {
    let store: TestStore;
    let db: Database;

    beforeAll(async () => {
      store = await harness.createStore();
      db = store.open();
      await db.query('CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL)');
      await db.query(`CREATE TABLE copy_target
        (id int PRIMARY KEY, "Note Text" text, doc jsonb, big int8, flag boolean)`);
    });

    afterAll(async () => {
      await db?.close();
      await store?.drop();
    });

    it('is of the expected kind and answers ping', async () => {
      expect(db.kind).toBe(harness.kind);
      await expect(db.ping()).resolves.toBeUndefined();
    });

    it('binds parameters and counts affected rows', async () => {
      const select = await db.query<{ s: string; n: number }>('SELECT $1::text || $2::text AS s, $3::int + 1 AS n', [
        'a\tb',
        "'; DROP TABLE items; --",
        41,
      ]);
      expect(select.rows).toEqual([{ s: "a\tb'; DROP TABLE items; --", n: 42 }]);
      expect(select.rowCount).toBe(1);
      const insert = await db.query('INSERT INTO items VALUES (100, $1), (101, $1), (102, $1)', ['x']);
      expect(insert.rowCount).toBe(3);
      const update = await db.query('UPDATE items SET label = $1 WHERE id >= 101', ['y']);
      expect(update.rowCount).toBe(2);
      const count = await db.query<{ n: string }>('SELECT count(*) AS n FROM items WHERE id >= 100');
      expect(count.rows[0]?.n).toBe('3');
    });

    it('commits a transaction and returns its result', async () => {
      const result = await db.transaction(async (tx) => {
        await tx.query('INSERT INTO items VALUES (200, $1)', ['committed']);
        const seen = await tx.query<{ label: string }>('SELECT label FROM items WHERE id = 200');
        return seen.rows[0]?.label;
      });
      expect(result).toBe('committed');
      const after = await db.query('SELECT 1 FROM items WHERE id = 200');
      expect(after.rowCount).toBe(1);
    });

    it('rolls back when the callback throws and rethrows the same error', async () => {
      const failure = new Error('abort on purpose');
      await expect(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO items VALUES (300, $1)', ['rolled back']);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect((await db.query('SELECT 1 FROM items WHERE id = 300')).rowCount).toBe(0);
    });

    it('rolls back on a failing statement and keeps the SQLSTATE code', async () => {
      await db.query('INSERT INTO items VALUES (400, $1)', ['existing']);
      const attempt = db.transaction(async (tx) => {
        await tx.query('INSERT INTO items VALUES (401, $1)', ['rolled back']);
        await tx.query('INSERT INTO items VALUES (400, $1)', ['duplicate']);
      });
      await expect(attempt).rejects.toMatchObject({ code: '23505' });
      expect((await db.query('SELECT 1 FROM items WHERE id = 401')).rowCount).toBe(0);
      await expect(db.query('SELECT 1')).resolves.toMatchObject({ rowCount: 1 });
    });

    it('copies awkward values so that they read back exactly', async () => {
      const columns = ['id', 'Note Text', 'doc', 'big', 'flag'];
      await expect(db.copyRows('public.copy_target', columns, AWKWARD)).resolves.toBe(AWKWARD.length);
      const { rows } = await db.query<Record<string, unknown>>(
        'SELECT id, "Note Text", doc, big, flag FROM copy_target WHERE id < 1000 ORDER BY id',
      );
      expect(rows.map((row) => columns.map((column) => row[column]))).toEqual(AWKWARD);
    });

    it('copies 50,000 rows from an async iterable', async () => {
      const written = await db.copyRows('copy_target', ['id', 'Note Text', 'doc', 'big', 'flag'], generateRows(50_000));
      expect(written).toBe(50_000);
      const { rows } = await db.query<{ n: string; ids: string; last: unknown }>(
        `SELECT count(*) AS n, sum(id - $1) AS ids, max(big) FILTER (WHERE doc->>'i' = '50000') AS last
         FROM copy_target WHERE id > $1 AND "Note Text" LIKE 'row %'`,
        [BULK_OFFSET],
      );
      expect(rows[0]).toEqual({ n: '50000', ids: String((50_000 * 50_001) / 2), last: '50000000000000' });
    });

    it('writes nothing when a copy fails part-way', async () => {
      async function* badRows(): AsyncGenerator<unknown[]> {
        yield [900_001, 'ok', null, null, null];
        yield [900_002, 'missing columns'];
      }
      await expect(db.copyRows('copy_target', ['id', 'Note Text', 'doc', 'big', 'flag'], badRows())).rejects.toThrow(
        /2 values, expected 5/,
      );
      expect((await db.query('SELECT 1 FROM copy_target WHERE id > 900000')).rowCount).toBe(0);
      await expect(db.copyRows('copy_target', ['id'], [])).resolves.toBe(0);
    });

    it('copies pre-encoded COPY text cut into arbitrary chunks', async () => {
      const columns = ['id', 'Note Text', 'doc', 'big', 'flag'];
      const awkward = AWKWARD.map(([id, ...rest]) => [TEXT_OFFSET + (id as number), ...rest]);
      async function* chunks(): AsyncGenerator<string> {
        yield* pieces(awkward.map(copyLine).join(''), 3);
      }
      await expect(db.copyText('copy_target', columns, chunks())).resolves.toBe(awkward.length);
      const { rows } = await db.query<Record<string, unknown>>(
        'SELECT id, "Note Text", doc, big, flag FROM copy_target WHERE id > $1 AND id < $2 ORDER BY id',
        [TEXT_OFFSET, TEXT_OFFSET + 1000],
      );
      expect(rows.map((row) => columns.map((column) => row[column]))).toEqual(awkward);
    });

    it('copies more COPY text than one write holds, split across row boundaries', async () => {
      // About 10 MB, more than PGlite hands over in one blob, in pieces that end mid-row.
      const count = 120_000;
      let text = '';
      for (let i = 1; i <= count; i++) {
        text += copyLine([TEXT_OFFSET + 1000 + i, `text row ${i} ${'x'.repeat(40)}`, { i }, String(i), i % 3 === 0]);
      }
      expect(text.length).toBeGreaterThan(9 * 1024 * 1024);
      await expect(
        db.copyText('copy_target', ['id', 'Note Text', 'doc', 'big', 'flag'], pieces(text, 65_521)),
      ).resolves.toBe(count);
      const { rows } = await db.query<{ n: string; ids: string; flags: string }>(
        `SELECT count(*) AS n, sum(id - $1) AS ids, count(*) FILTER (WHERE flag) AS flags
         FROM copy_target WHERE id > $1 AND "Note Text" LIKE 'text row %'`,
        [TEXT_OFFSET + 1000],
      );
      expect(rows[0]).toEqual({ n: String(count), ids: String((count * (count + 1)) / 2), flags: String(count / 3) });
    });

    it('writes no COPY text when it fails part-way', async () => {
      const good = copyLine([TEXT_OFFSET + 900_001, 'ok', null, null, null]);
      await expect(
        db.copyText('copy_target', ['id', 'Note Text', 'doc', 'big', 'flag'], [good, '900002\tshort\n']),
      ).rejects.toThrow();
      async function* failing(): AsyncGenerator<string> {
        yield good;
        throw new Error('source failed');
      }
      await expect(db.copyText('copy_target', ['id', 'Note Text', 'doc', 'big', 'flag'], failing())).rejects.toThrow(
        'source failed',
      );
      expect((await db.query('SELECT 1 FROM copy_target WHERE id > $1', [TEXT_OFFSET + 900_000])).rowCount).toBe(0);
      await expect(db.copyText('copy_target', ['id'], [])).resolves.toBe(0);
      await expect(db.query('SELECT 1')).resolves.toMatchObject({ rowCount: 1 });
    });

    it('maps bigint, timestamps, dates, numeric and json the same way', async () => {
      await db.query(`CREATE TABLE typed (id bigserial PRIMARY KEY, big int8, bigs int8[], at timestamptz,
        naive timestamp, day date, doc jsonb, amount numeric, small int4)`);
      const at = new Date('2024-05-06T07:08:09.123Z');
      const doc = { a: [1, 'x', { b: null }], unicode: 'ü' };
      const { rows } = await db.query(
        `INSERT INTO typed (big, bigs, at, naive, day, doc, amount, small)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        ['9007199254740993', ['1', '9007199254740993'], at, '2024-05-06 07:08:09.123', '2024-05-06', doc, '12.50', 7],
      );
      expect(rows[0]).toEqual({
        id: '1',
        big: '9007199254740993',
        bigs: ['1', '9007199254740993'],
        at,
        naive: at,
        day: '2024-05-06',
        doc,
        amount: '12.50',
        small: 7,
      });
    });

    it('analyzeAfterLoad analyzes a table without statistics, after a large load, and once small loads add up', async () => {
      await db.query('CREATE TABLE loaded (id int PRIMARY KEY, label text)');
      const reltuples = async () =>
        (await db.query<{ n: number }>(`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'loaded'::regclass`))
          .rows[0]!.n;
      // Each load flushes its backend's count of changes to the shared statistics as it goes
      // idle after its transaction (a backend otherwise flushes at most once a second), so
      // the server's count is up to date at each check.
      const load = (from: number, n: number) =>
        db.transaction(async (tx) => {
          await tx.query(`INSERT INTO loaded SELECT g, 'x' FROM generate_series($1::int, $2::int) g`, [
            from,
            from + n - 1,
          ]);
          await tx.query('SELECT pg_stat_force_next_flush()');
        });
      expect(await analyzeAfterLoad(db, 'loaded', 0)).toBe(false);
      await load(1, 1000);
      expect(await reltuples()).toBeLessThanOrEqual(0);
      expect(await analyzeAfterLoad(db, 'loaded', 1000)).toBe(true);
      expect(await reltuples()).toBe(1000);
      // 100 more rows: below 50 + 10 % of 1,000, the statistics stay.
      await load(1001, 100);
      expect(await analyzeAfterLoad(db, 'loaded', 100)).toBe(false);
      expect(await reltuples()).toBe(1000);
      await load(1101, 200);
      expect(await analyzeAfterLoad(db, 'loaded', 200)).toBe(true);
      expect(await reltuples()).toBe(1300);
      // Small loads add up: each below 50 + 10 % of 1,300 (180), the second brings the changes
      // since the last ANALYZE to 200 (the server's count).
      await load(1301, 100);
      expect(await analyzeAfterLoad(db, 'loaded', 100)).toBe(false);
      await load(1401, 100);
      expect(await analyzeAfterLoad(db, 'loaded', 100)).toBe(true);
      expect(await reltuples()).toBe(1500);
      await expect(analyzeAfterLoad(db, 'loaded; DROP TABLE items', 1)).rejects.toThrow(/plain table name/);
      await expect(analyzeAfterLoad(db, 'no_such_table', 1)).rejects.toThrow(/no table/);
    });

    it('closes idempotently', async () => {
      const extra = store.open();
      await extra.ping();
      await extra.close();
      await expect(extra.close()).resolves.toBeUndefined();
    });
  });

  describeMigrateContract(harness);
  describeContactsMigrationContract(harness);
}
