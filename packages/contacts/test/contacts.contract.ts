/**
 * The contact store's behaviour, written once and run against PGlite (unit) and
 * PostgreSQL (integration): import, rejects, idempotent re-import, suppression flags.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { text } from 'node:stream/consumers';
import { blockingKeys, standardizeAddress } from '@skiptrace/matching';
import type { Database } from '@skiptrace/storage';
import { findCandidates, importContacts, importSuppression, loadContactDetails } from '../src/index.ts';
import type { ContactCandidate, ContactDetails, ImportContactsOptions, ImportSource } from '../src/index.ts';

export interface ContractHarness {
  db: Database;
  dispose(): Promise<void>;
}

export const keyOf = (street: string, zip: string): string =>
  standardizeAddress({ street_address: street, zip_code: zip }).key;

/**
 * findCandidates for address keys, each candidate with its details (loadContactDetails),
 * by requested key: the rows stored at that exact key, as the lookup used to return them.
 */
async function find(db: Database, keys: string[]): Promise<Map<string, (ContactCandidate & ContactDetails)[]>> {
  const queries = keys.map((key) => {
    const [number = '', street = '', zip = ''] = key.split('|');
    return blockingKeys(standardizeAddress({ street_address: `${number} ${street}`, zip_code: zip }));
  });
  const found = await findCandidates(db, queries);
  const details = await loadContactDetails(db, found.flat());
  const out = new Map<string, (ContactCandidate & ContactDetails)[]>();
  keys.forEach((key, i) => {
    const exact = found[i]!.filter((c) => c.addressKey === key);
    out.set(
      key,
      exact.map((c) => ({ ...c, ...details.get(c.id)! })),
    );
  });
  return out;
}

/** Runs an import, collecting the reject stream's text. */
export async function runImport(db: Database, input: ImportSource, options: Partial<ImportContactsOptions> = {}) {
  const rejects = new PassThrough();
  const rejected = text(rejects);
  const counts = await importContacts(db, input, { format: 'csv', rejects, ...options });
  rejects.end();
  return { counts, rejects: await rejected };
}

const VENDOR_CSV = [
  'Property Address,City,ST,Zip,Owner First Name,Owner Last Name,Mobile,Phone 2,Phone 2 Type,Email',
  '"123 North Main Street, Apt 4",Austin,Texas,78701,José,García,(512) 555-0101,512.555.0102,Landline,JG@Example.com',
  '9 Elm St,Austin,TX,78701,"Ann ""Annie""","Lee\nSmith",512-555-0103,,,',
  '10 Oak Ave,Austin,XX,78701,Bob,Stone,512-555-0104,,,',
  '11 Oak Ave,Austin,TX,7870A,Bob,Stone,512-555-0105,,,',
  '12 Oak Ave,Austin,TX,78701,Bob,Stone,123,,,',
  ',Austin,TX,78701,Bob,Stone,512-555-0106,,,',
  '',
].join('\n');

export function contactStoreContract(name: string, open: () => Promise<ContractHarness>): void {
  describe(`contact store (${name})`, () => {
    let harness: ContractHarness;
    let db: Database;
    beforeAll(async () => {
      harness = await open();
      db = harness.db;
    }, 60_000);
    afterAll(async () => harness?.dispose());
    beforeEach(async () => {
      await db.query('TRUNCATE contacts, suppression');
    });

    it('imports vendor headers and quoted fields, rejecting bad rows with line and reason', async () => {
      const { counts, rejects } = await runImport(db, VENDOR_CSV);
      expect(counts).toEqual({ read: 6, imported: 2, duplicates: 0, rejected: 4 });
      expect(rejects.trim().split('\n')).toEqual([
        'line,reason',
        '5,"unknown state ""XX"""',
        '6,"bad zip_code ""7870A"""',
        '7,"no valid phone (""123"")"',
        '8,missing street_address',
      ]);
      const found = await find(db, [keyOf('123 N Main St', '78701'), keyOf('9 Elm Street', '78701')]);
      const [main] = found.get(keyOf('123 N Main St', '78701'))!;
      expect(main).toMatchObject({
        firstName: 'José',
        lastName: 'García',
        state: 'TX',
        zip5: '78701',
        emails: ['jg@example.com'],
        phones: [
          { number: '+15125550101', type: 'mobile', dnc: false, litigator: false },
          { number: '+15125550102', type: 'landline', dnc: false, litigator: false },
        ],
      });
      expect(main!.unitKey).toMatch(/\|4$/);
      const [elm] = found.get(keyOf('9 Elm Street', '78701'))!;
      expect(elm).toMatchObject({ firstName: 'Ann "Annie"', lastName: 'Lee\nSmith' });
    });

    it('does not duplicate anything when the same file is imported again', async () => {
      const first = await runImport(db, VENDOR_CSV);
      const again = await runImport(db, VENDOR_CSV, { batchSize: 1 });
      expect(again.counts).toEqual({ ...first.counts, imported: 0, duplicates: first.counts.imported });
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM contacts');
      expect(rows[0]!.n).toBe(2);
    });

    it('fills an empty store through a load table that takes the place of contacts, same shape and sequence', async () => {
      const shape = async () => ({
        indexes: (
          await db.query<{ indexname: string; indexdef: string }>(
            `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'contacts' ORDER BY indexname`,
          )
        ).rows,
        constraints: (
          await db.query<{ conname: string; contype: string }>(
            `SELECT conname, contype FROM pg_constraint WHERE conrelid = 'contacts'::regclass ORDER BY conname`,
          )
        ).rows,
        columns: (
          await db.query<{
            attname: string;
            collation: string | null;
            notnull: boolean;
            def: string | null;
            stattarget: number;
          }>(
            `SELECT a.attname, c.collname AS collation, a.attnotnull AS notnull, pg_get_expr(d.adbin, d.adrelid) AS def,
                    a.attstattarget AS stattarget
             FROM pg_attribute a
             LEFT JOIN pg_collation c ON c.oid = a.attcollation
             LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
             WHERE a.attrelid = 'contacts'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
          )
        ).rows,
        sequence: (await db.query<{ seq: string | null }>(`SELECT pg_get_serial_sequence('contacts', 'id') AS seq`))
          .rows[0]!.seq,
      });
      const oid = async () =>
        (await db.query<{ oid: unknown }>(`SELECT 'contacts'::regclass::oid AS oid`)).rows[0]!.oid;
      const before = await shape();
      expect(before.indexes.length).toBeGreaterThanOrEqual(5);
      const empty = await oid();
      const { counts } = await runImport(db, VENDOR_CSV, { batchSize: 1 });
      expect(counts).toEqual({ read: 6, imported: 2, duplicates: 0, rejected: 4 });
      // Another table now (the load table), shaped as the migrations made contacts.
      expect(await oid()).not.toEqual(empty);
      expect(await shape()).toEqual(before);
      const leftovers = await db.query(`SELECT relname FROM pg_class WHERE relname LIKE 'contacts\\_load\\_%'`);
      expect(leftovers.rows).toEqual([]);
      // Analyzed before the swap: the lookup's planner statistics are there at once.
      const stats = await db.query<{ reltuples: number }>(
        `SELECT reltuples::float8 AS reltuples FROM pg_class WHERE oid = 'contacts'::regclass`,
      );
      expect(stats.rows[0]!.reltuples).toBe(2);
      // The next import (a store with rows: batch by batch) goes on with the same sequence.
      const ids = async () =>
        (await db.query<{ id: string }>('SELECT id FROM contacts ORDER BY id')).rows.map((r) => BigInt(r.id));
      const first = await ids();
      const more = await runImport(
        db,
        'street_address,city,state,zip5,phone_1\n4 Ash St,Austin,TX,78701,512-555-0150\n',
      );
      expect(more.counts.imported).toBe(1);
      const after = await ids();
      expect(after).toHaveLength(3);
      expect(after[2]! > first[1]!).toBe(true);
      expect(await shape()).toEqual(before);
      const found = await find(db, [keyOf('4 Ash Street', '78701'), keyOf('9 Elm Street', '78701')]);
      expect([...found.values()].map((rows) => rows.length)).toEqual([1, 1]);
    });

    it('moves the loaded rows in when another import filled the store during the load', async () => {
      const header = 'street_address,city,state,zip5,first_name,last_name,phone_1';
      const row = (n: number): string => `${n} Larch St,Austin,TX,78701,Al,Roe,512-555-01${n}`;
      let inner: Awaited<ReturnType<typeof runImport>> | undefined;
      async function* file() {
        yield `${header}\n${row(10)}\n${row(11)}\n`;
        // Both imports began on an empty store; this one finishes first and takes its place.
        inner = await runImport(db, `${header}\n${row(11)}\n${row(12)}\n`);
        yield `${row(13)}\n`;
      }
      // The statements of the outer import, to see that it took the bulk path.
      const statements: string[] = [];
      const recorded: Database = {
        ...db,
        query: (text, params) => {
          statements.push(text);
          return db.query(text, params);
        },
      };
      const outer = await runImport(recorded, file(), { batchSize: 1 });
      expect(statements.some((text) => /^INSERT INTO contacts .* FROM contacts_load_/s.test(text))).toBe(true);
      expect(inner!.counts).toEqual({ read: 2, imported: 2, duplicates: 0, rejected: 0 });
      expect(outer.counts).toEqual({ read: 3, imported: 2, duplicates: 1, rejected: 0 });
      const { rows } = await db.query<{ n: number; d: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT row_hash)::int AS d FROM contacts',
      );
      expect(rows[0]).toEqual({ n: 4, d: 4 });
      const leftovers = await db.query(`SELECT relname FROM pg_class WHERE relname LIKE 'contacts\\_load\\_%'`);
      expect(leftovers.rows).toEqual([]);
    });

    it('moves the loaded rows in when a view keeps contacts from being dropped', async () => {
      await db.query('CREATE VIEW contacts_names AS SELECT first_name FROM contacts');
      try {
        const { counts } = await runImport(db, VENDOR_CSV);
        expect(counts).toEqual({ read: 6, imported: 2, duplicates: 0, rejected: 4 });
        const { rows } = await db.query<{ first_name: string }>('SELECT first_name FROM contacts_names ORDER BY 1');
        expect(rows.map((r) => r.first_name)).toEqual(['Ann "Annie"', 'José']);
      } finally {
        await db.query('DROP VIEW contacts_names');
      }
    });

    it('stores nothing and leaves no load table when an import into an empty store fails mid-way', async () => {
      async function* file() {
        yield 'street_address,city,state,zip5,phone_1\n1 Yew Ct,Austin,TX,78701,512-555-0160\n';
        yield '2 Yew Ct,Austin,TX,78701,512-555-0161\n';
        throw new Error('disk gone');
      }
      await expect(runImport(db, file(), { batchSize: 1 })).rejects.toThrow('disk gone');
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM contacts');
      expect(rows[0]!.n).toBe(0);
      const leftovers = await db.query(`SELECT relname FROM pg_class WHERE relname LIKE 'contacts\\_load\\_%'`);
      expect(leftovers.rows).toEqual([]);
    });

    it('counts rows repeated in the file as duplicates, in a later batch or the same one', async () => {
      const header = 'street_address,city,state,zip_code,first_name,last_name,phone_1';
      const row = (n: number): string => `${n} Birch Rd,Austin,TX,78701,Al,Roe,512-555-01${n}`;
      // Batches of 2: [10, 11] is stored as it is; [12, 10] meets 10 again.
      const later = await runImport(db, [header, row(10), row(11), row(12), row(10), ''].join('\n'), { batchSize: 2 });
      expect(later.counts).toEqual({ read: 4, imported: 3, duplicates: 1, rejected: 0 });
      await db.query('TRUNCATE contacts');
      const same = await runImport(db, [header, row(20), row(21), row(20), row(22), ''].join('\n'));
      expect(same.counts).toEqual({ read: 4, imported: 3, duplicates: 1, rejected: 0 });
      const { rows } = await db.query<{ n: number }>('SELECT count(DISTINCT row_hash)::int AS n FROM contacts');
      expect(rows[0]!.n).toBe(3);
      // A new file whose first batches are new and a later one is already stored.
      const mixed = await runImport(db, [header, row(23), row(24), row(20), ''].join('\n'), { batchSize: 2 });
      expect(mixed.counts).toEqual({ read: 3, imported: 2, duplicates: 1, rejected: 0 });
    });

    it('counts repeats scattered over many small batches in flight at once', async () => {
      const header = 'street_address,city,state,zip5,first_name,last_name,phone_1';
      const row = (n: number): string => `${n} Aspen Ct,Austin,TX,78701,Al,Roe,512-555-0110`;
      // 40 new rows; after every 4th, a repeat of a row three back (10 repeats). Batches of
      // 3 put repeats both in the batch of their original and in later ones.
      const lines = [header];
      for (let n = 1; n <= 40; n++) {
        lines.push(row(n));
        if (n % 4 === 0) lines.push(row(n - 3));
      }
      const { counts } = await runImport(db, [...lines, ''].join('\n'), { batchSize: 3 });
      expect(counts).toEqual({ read: 50, imported: 40, duplicates: 10, rejected: 0 });
      const { rows } = await db.query<{ n: number; d: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT row_hash)::int AS d FROM contacts',
      );
      expect(rows[0]).toEqual({ n: 40, d: 40 });
      const again = await runImport(db, [...lines, ''].join('\n'), { batchSize: 7 });
      expect(again.counts).toEqual({ read: 50, imported: 0, duplicates: 50, rejected: 0 });
    });

    it('stores each row once when two large batches in flight hold the same rows in crossed order', async () => {
      // Batch 1 writes rows 1..N, batch 2 the same rows N..1 while batch 1 may still be
      // running. Into a store with rows (batch by batch) the two can deadlock on row_hash on
      // PostgreSQL, and the loser must be written again (with ON CONFLICT), not fail the
      // import; into an empty store (the load table) the repeats fail its unique index.
      const n = 5000;
      const header = 'street_address,city,state,zip5,first_name,last_name,phone_1';
      const row = (i: number): string => `${i} Cedar Ln,Austin,TX,78701,Al,Roe,512-555-0110`;
      const lines = [header];
      for (let i = 1; i <= n; i++) lines.push(row(i));
      for (let i = n; i >= 1; i--) lines.push(row(i));
      for (const stored of [0, 1]) {
        await db.query('TRUNCATE contacts');
        if (stored > 0) await runImport(db, `${header}\n1 Other Rd,Austin,TX,78701,Al,Roe,512-555-0111\n`);
        const { counts } = await runImport(db, [...lines, ''].join('\n'), { batchSize: n });
        expect(counts).toEqual({ read: 2 * n, imported: n, duplicates: n, rejected: 0 });
        const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM contacts');
        expect(rows[0]!.n).toBe(n + stored);
      }
    });

    it('decodes files as batch uploads do: a declared charset, UTF-16 without a BOM, Windows-1252 detected; refuses bytes the declared charset cannot decode', async () => {
      const csv =
        'street_address,city,state,zip5,first_name,last_name,phone_1\n1 Birch Ln,Austin,TX,78701,Jänet,Roe,512-555-0130\n';
      const names = async () =>
        (await db.query<{ first_name: string }>('SELECT first_name FROM contacts ORDER BY first_name')).rows.map(
          (r) => r.first_name,
        );
      await importContacts(db, [Buffer.from(csv, 'latin1')], { format: 'csv', charset: 'iso-8859-1' });
      expect(await names()).toEqual(['Jänet']);
      await db.query('TRUNCATE contacts');
      await importContacts(db, [Buffer.from(csv, 'utf16le').swap16()], { format: 'csv' });
      expect(await names()).toEqual(['Jänet']);
      await db.query('TRUNCATE contacts');
      // Undeclared: the accents of a spreadsheet saved on Windows are detected, not refused.
      await importContacts(db, [Buffer.from(csv, 'latin1')], { format: 'csv' });
      expect(await names()).toEqual(['Jänet']);
      await db.query('TRUNCATE contacts');
      await expect(
        importContacts(db, [Buffer.from(csv, 'latin1')], { format: 'csv', charset: 'utf-8' }),
      ).rejects.toThrow(/^the file is not valid UTF-8/);
      expect(await names()).toEqual([]);
    });

    it('lets a map override the aliases', async () => {
      const csv = 'Address,Situs,City,State,Zip,Tel\n1 Wrong Way,5 Right Rd,Austin,TX,78701,512-555-0110\n';
      const { counts } = await runImport(db, csv, { map: { street_address: 'Situs', phone_1: 'Tel' } });
      expect(counts.imported).toBe(1);
      expect((await find(db, [keyOf('5 Right Road', '78701')])).get(keyOf('5 Right Road', '78701'))).toHaveLength(1);
    });

    it('imports NDJSON with flat canonical keys or phone arrays, rejecting bad JSON', async () => {
      const lines = [
        '{"street_address":"7 Pine Ln","city":"Austin","state":"TX","zip_code":78701,"first_name":"Al","phone_1":"5125550120","phone_1_type":"cell"}',
        '{"Address":"8 Pine Ln","City":"Austin","State":"TX","Zip":"78701","phones":[{"number":"512-555-0121","type":"VoIP"},"5125550122"]}',
        '{not json',
        '',
      ];
      const { counts, rejects } = await runImport(db, lines.join('\n'), { format: 'ndjson' });
      expect(counts).toEqual({ read: 3, imported: 2, duplicates: 0, rejected: 1 });
      expect(rejects).toContain('3,invalid JSON');
      const found = await find(db, [keyOf('7 Pine Lane', '78701'), keyOf('8 Pine Lane', '78701')]);
      expect(found.get(keyOf('7 Pine Lane', '78701'))![0]!.phones).toEqual([
        { number: '+15125550120', type: 'mobile', dnc: false, litigator: false },
      ]);
      expect(found.get(keyOf('8 Pine Lane', '78701'))![0]!.phones.map((p) => p.type)).toEqual(['voip', 'unknown']);
    });

    it('flags phones on the suppression lists and returns every requested key', async () => {
      await runImport(db, VENDOR_CSV);
      const dnc = await importSuppression(db, '5125550101\n512,5550102\nnot a phone\n', { kind: 'dnc' });
      expect(dnc).toEqual({ read: 3, imported: 2, duplicates: 0, rejected: 1 });
      await importSuppression(db, 'Name,Phone Number\nX,(512) 555-0102\n', { kind: 'litigator' });
      const again = await importSuppression(db, ['5125550101\n'], { kind: 'dnc' });
      expect(again).toMatchObject({ imported: 0, duplicates: 1 });
      // Repeats within the file and a listed number in a later batch: each stored once.
      const repeats = await importSuppression(db, '5125550170\n5125550171\n5125550170\n5125550101\n5125550172\n', {
        kind: 'dnc',
        batchSize: 2,
      });
      expect(repeats).toEqual({ read: 5, imported: 3, duplicates: 2, rejected: 0 });
      const listed = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM suppression WHERE kind = 'dnc'`);
      expect(listed.rows[0]!.n).toBe(5);
      const key = keyOf('123 N Main St', '78701');
      const found = await find(db, [key, key, 'no|such|key']);
      expect([...found.keys()]).toEqual([key, 'no|such|key']);
      expect(found.get('no|such|key')).toEqual([]);
      expect(found.get(key)![0]!.phones).toEqual([
        { number: '+15125550101', type: 'mobile', dnc: true, litigator: false },
        { number: '+15125550102', type: 'landline', dnc: true, litigator: true },
      ]);
    });
  });
}
