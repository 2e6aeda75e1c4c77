/**
 * The owner model's stores (people with address history, property records), written once
 * and run against PGlite (unit) and PostgreSQL (integration).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { Database } from '@skiptrace/storage';
import { importProperties } from '../src/index.ts';
import type { ImportPropertiesOptions, ImportSource } from '../src/index.ts';
import { runImport, type ContractHarness } from './contacts.contract.ts';

interface StoredRow {
  person_key: string;
  street_address: string;
  first_seen: string;
  last_seen: string;
  middle_name: string;
  suffix: string;
  birth_year: number | null;
  deceased: boolean;
  phones: { number: string; type: string; first_seen?: string; last_seen?: string }[];
}

const rowsOf = async (db: Database): Promise<StoredRow[]> =>
  (
    await db.query<StoredRow>(
      `SELECT person_key, street_address, first_seen, last_seen, middle_name, suffix, birth_year, deceased, phones
       FROM contacts ORDER BY person_key, last_seen DESC, street_address`,
    )
  ).rows;

async function runPropertyImport(db: Database, input: ImportSource, options: Partial<ImportPropertiesOptions> = {}) {
  const rejects = new PassThrough();
  const rejected = text(rejects);
  const counts = await importProperties(db, input, { format: 'csv', rejects, ...options });
  rejects.end();
  return { counts, rejects: await rejected };
}

const PERSON = {
  person_id: 'p1',
  first_name: 'Mary',
  middle_name: 'Ann',
  last_name: 'Okafor',
  suffix: '',
  birth_year: 1961,
  addresses: [
    {
      street_address: '12 Oak Ave',
      city: 'Austin',
      state: 'TX',
      zip_code: '78701',
      first_seen: '2004',
      last_seen: '2015-06',
    },
    {
      street_address: '800 Elm St Apt 3',
      city: 'Dallas',
      state: 'TX',
      zip_code: '75201',
      first_seen: '2015-07',
      last_seen: '2026-10-01',
    },
  ],
  phones: [
    { number: '512-555-0101', type: 'landline', first_seen: '2004', last_seen: '2015' },
    { number: '214-555-0102', type: 'mobile', first_seen: '2015-07', last_seen: '2026-10' },
  ],
  emails: ['mary@example.com'],
};

export function peopleStoreContract(name: string, open: () => Promise<ContractHarness>): void {
  describe(`people and property records (${name})`, () => {
    let harness: ContractHarness;
    let db: Database;
    beforeAll(async () => {
      harness = await open();
      db = harness.db;
    }, 60_000);
    afterAll(async () => harness?.dispose());
    beforeEach(async () => {
      await db.query('TRUNCATE contacts, property_records');
    });

    it('imports the NDJSON person form as one row per address, the phones on the current one', async () => {
      const { counts } = await runImport(db, `${JSON.stringify(PERSON)}\n`, { format: 'ndjson', source: 'vendor' });
      expect(counts).toEqual({ read: 1, imported: 2, duplicates: 0, rejected: 0 });
      const rows = await rowsOf(db);
      expect(rows.map((r) => [r.street_address, r.first_seen, r.last_seen, r.phones.length])).toEqual([
        ['800 ELM ST APT 3', '2015-07', '2026-10-01', 2],
        ['12 OAK AVE', '2004', '2015-06', 0],
      ]);
      expect(new Set(rows.map((r) => r.person_key)).size).toBe(1);
      expect(rows[0]).toMatchObject({ middle_name: 'Ann', birth_year: 1961, deceased: false });
      expect(rows[0]!.phones[0]).toEqual({
        number: '+15125550101',
        type: 'landline',
        first_seen: '2004',
        last_seen: '2015',
      });
    });

    it('updates a person from a newer file of the same source instead of adding them again', async () => {
      await runImport(db, `${JSON.stringify(PERSON)}\n`, { format: 'ndjson', source: 'vendor' });
      const newer = {
        ...PERSON,
        addresses: [{ ...PERSON.addresses[0]! }, { ...PERSON.addresses[1]!, last_seen: '2026-11' }],
      };
      const { counts } = await runImport(db, `${JSON.stringify(newer)}\n`, { format: 'ndjson', source: 'vendor' });
      expect(counts).toEqual({ read: 1, imported: 1, duplicates: 1, rejected: 0 });
      expect((await rowsOf(db)).map((r) => r.last_seen)).toEqual(['2026-11', '2015-06']);
      // Another source's person_id p1 is another person.
      await runImport(db, `${JSON.stringify(PERSON)}\n`, { format: 'ndjson', source: 'other' });
      expect(new Set((await rowsOf(db)).map((r) => r.person_key)).size).toBe(2);
    });

    it('reads person rows of CSV with dates of addresses and phones; a row without a phone is kept for a person only', async () => {
      const csv = [
        'person_id,first_name,last_name,suffix,street_address,city,state,zip_code,first_seen,last_seen,phone_1,phone_1_type,phone_1_first_seen,phone_1_last_seen,deceased',
        'p9,John,Reyes,JR,5 Pine Rd,Austin,TX,78702,03/2001,2010,512-555-0110,landline,,,N',
        'p9,John,Reyes,JR,77 Lake Dr,Austin,TX,78703,2010-02,2026-09,512-555-0111,mobile,2012,2026-09,',
        'p9,John,Reyes,JR,9 Hill St,Austin,TX,78704,2026,2026,,,,,',
        ',Ann,Lee,,9 Hill St,Austin,TX,78704,,,,,,,',
        'p7,Zed,Moss,,1 Bay St,Austin,TX,78704,2019-13,2020,512-555-0112,,,,',
        'p8,Al,Moss,,1 Bay St,Austin,TX,78704,2019,2020,512-555-0113,,,,maybe',
      ].join('\n');
      const { counts, rejects } = await runImport(db, csv, { source: 'file' });
      expect(counts).toEqual({ read: 6, imported: 3, duplicates: 0, rejected: 3 });
      expect(rejects.trim().split('\n').slice(1)).toEqual([
        '5,no phone',
        '6,"bad first_seen ""2019-13"" (YYYY, YYYY-MM or YYYY-MM-DD)"',
        '7,"bad deceased ""maybe"" (Y/N)"',
      ]);
      const rows = await rowsOf(db);
      expect(rows.map((r) => [r.street_address, r.first_seen, r.last_seen])).toEqual([
        // SQL text order; the engine compares "2026" as the end of 2026 (seen-dates.ts).
        ['77 LAKE DR', '2010-02', '2026-09'],
        ['9 HILL ST', '2026', '2026'],
        ['5 PINE RD', '2001-03', '2010'],
      ]);
      // A phone without dates of its own takes its row's.
      expect(rows[2]!.phones).toEqual([
        { number: '+15125550110', type: 'landline', first_seen: '2001-03', last_seen: '2010' },
      ]);
      expect(rows[0]!.phones[0]).toMatchObject({ first_seen: '2012', last_seen: '2026-09' });
    });

    it('imports property records from county headers, replacing a parcel by its newer record', async () => {
      const roll = [
        'PARCEL_NUMBER,SITUS_ADDR,SITUS_CITY,SITUS_STATE,SITUS_ZIP,OWNER,OWNER2,MAIL_ADDR,MAIL_CITY,MAIL_STATE,MAIL_ZIP,OWNER_OCCUPIED,SALE_DATE',
        '0101-22,12 Oak Ave,Austin,TX,78701,OKAFOR MARY A,,800 Elm St Apt 3,Dallas,TX,75201,N,2003-05-01',
        '0101-23,14 Oak Ave,Austin,TX,78701,SMITH JOHN & JANE H/W,,PO BOX 44,Austin,TX,78701,,',
        '0101-24,16 Oak Ave,Austin,TX,78701,ACME HOLDINGS LLC,,,,,,Y,',
        '0101-25,,Austin,TX,78701,NOBODY,,,,,,,',
        '0101-26,18 Oak Ave,Austin,TX,78701,,,,,,,,',
        '0101-27,20 Oak Ave,Austin,TX,78701,DOE JOHN,,,,,,maybe,',
      ].join('\n');
      const { counts, rejects } = await runPropertyImport(db, roll, { source: 'roll-2025' });
      expect(counts).toEqual({ read: 6, imported: 3, duplicates: 0, rejected: 3 });
      expect(rejects.trim().split('\n').slice(1)).toEqual([
        '5,missing street_address',
        '6,no owner name',
        '7,"bad owner_occupied ""maybe"" (Y/N)"',
      ]);
      const stored = await db.query<{
        apn: string;
        owner_name: string;
        mailing_key: string;
        mailing_street_address: string;
        owner_occupied: boolean | null;
        name_order: string;
      }>(
        'SELECT apn, owner_name, mailing_key, mailing_street_address, owner_occupied, name_order FROM property_records ORDER BY apn',
      );
      expect(stored.rows).toEqual([
        {
          apn: '0101-22',
          owner_name: 'OKAFOR MARY A',
          mailing_key: '800|ELM ST|75201',
          mailing_street_address: '800 ELM ST APT 3',
          owner_occupied: false,
          name_order: 'lastFirst',
        },
        {
          apn: '0101-23',
          owner_name: 'SMITH JOHN & JANE H/W',
          mailing_key: '',
          mailing_street_address: 'PO BOX 44',
          owner_occupied: null,
          name_order: 'lastFirst',
        },
        {
          apn: '0101-24',
          owner_name: 'ACME HOLDINGS LLC',
          mailing_key: '',
          mailing_street_address: '',
          owner_occupied: true,
          name_order: 'lastFirst',
        },
      ]);
      const newer = [
        'apn,street_address,city,state,zip_code,owner_name',
        '0101-22,12 Oak Avenue,Austin,TX,78701,NGUYEN LAN',
      ].join('\n');
      expect((await runPropertyImport(db, newer)).counts).toEqual({ read: 1, imported: 1, duplicates: 0, rejected: 0 });
      expect((await runPropertyImport(db, newer)).counts).toEqual({ read: 1, imported: 0, duplicates: 1, rejected: 0 });
      const after = await db.query<{ owner_name: string }>(
        `SELECT owner_name FROM property_records WHERE apn = '0101-22'`,
      );
      expect(after.rows).toEqual([{ owner_name: 'NGUYEN LAN' }]);
    });

    it('stores the same records whatever the batches: mailing addresses repeated across batches, one the situs, one new in each', async () => {
      const mailings = [
        ['800 Elm St Apt 3', 'Dallas', 'TX', '75201'],
        ['PO BOX 44', 'Austin', 'TX', '78701'],
        ['800 Elm St Apt 3', 'Dallas', 'tx', '75201'],
        ['800 Elm St Apt 3', 'Fort Worth', 'TX', '76102'],
      ];
      const lines = [
        'apn,street_address,city,state,zip_code,owner_name,mailing_street_address,mailing_city,mailing_state,mailing_zip_code',
      ];
      for (let i = 0; i < 40; i++) {
        const situs = [`${100 + i} Oak Ave`, 'St. Louis', 'MO', '63101'];
        const mailing =
          i % 5 === 4 ? situs : i % 7 === 6 ? [`${i} Pine Rd`, 'Austin', 'TX', '78704'] : mailings[i % 4]!;
        lines.push([`A-${i}`, ...situs, `OWNER${i} JOHN`, ...mailing].join(','));
      }
      const read = async () =>
        (
          await db.query<Record<string, string>>(
            `SELECT apn, address_key, unit_key, street_address, city, state, zip5, mailing_street_address, mailing_city,
                    mailing_state, mailing_zip5, mailing_key, mailing_unit_key, name_order FROM property_records ORDER BY apn`,
          )
        ).rows;
      expect((await runPropertyImport(db, lines.join('\n'), { batchSize: 3 })).counts).toMatchObject({ imported: 40 });
      const batched = await read();
      await db.query('DELETE FROM property_records');
      expect((await runPropertyImport(db, lines.join('\n'), { batchSize: 1000 })).counts).toMatchObject({
        imported: 40,
      });
      expect(await read()).toEqual(batched);
      const { standardizeAddress } = await import('@skiptrace/matching');
      for (const row of batched) {
        const i = Number(row.apn!.slice(2));
        const mailing = lines[i + 1]!.split(',').slice(6);
        const m = standardizeAddress({
          street_address: mailing[0]!,
          city: mailing[1]!,
          state: mailing[2]!,
          zip_code: mailing[3]!,
        });
        expect([row.mailing_street_address, row.mailing_city, row.mailing_state, row.mailing_zip5]).toEqual([
          m.line,
          m.city,
          m.state,
          m.zip5,
        ]);
        expect(row.mailing_key).toBe(m.number !== '' ? m.key : '');
        expect(row.city).toBe('SAINT LOUIS');
      }
    });

    it('fills an empty property_records through a load table: same shape, and a parcel repeated in the file keeps its last record', async () => {
      const shape = async () => ({
        indexes: (
          await db.query(
            `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'property_records' ORDER BY indexname`,
          )
        ).rows,
        constraints: (
          await db.query(
            `SELECT conname, contype, pg_get_constraintdef(oid) AS def FROM pg_constraint
             WHERE conrelid = 'property_records'::regclass ORDER BY conname`,
          )
        ).rows,
        columns: (
          await db.query(
            `SELECT a.attname, a.attnotnull, a.attstattarget, pg_get_expr(d.adbin, d.adrelid) AS def
             FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
             WHERE a.attrelid = 'property_records'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
          )
        ).rows,
        sequence: (await db.query(`SELECT pg_get_serial_sequence('property_records', 'id') AS seq`)).rows,
      });
      const before = await shape();
      const oid = async () => (await db.query(`SELECT 'property_records'::regclass::oid AS oid`)).rows[0];
      const empty = await oid();
      const roll = [
        'apn,street_address,city,state,zip_code,owner_name',
        '1,12 Oak Ave,Austin,TX,78701,OKAFOR MARY',
        '2,14 Oak Ave,Austin,TX,78701,SMITH JOHN',
        '1,12 Oak Avenue,Austin,TX,78701,NGUYEN LAN',
        '3,16 Oak Ave,Austin,TX,78701,DOE JANE',
      ].join('\n');
      const { counts } = await runPropertyImport(db, roll, { batchSize: 2 });
      expect(counts).toEqual({ read: 4, imported: 3, duplicates: 1, rejected: 0 });
      expect(await oid()).not.toEqual(empty);
      expect(await shape()).toEqual(before);
      const stored = await db.query<{ apn: string; owner_name: string }>(
        'SELECT apn, owner_name FROM property_records ORDER BY apn',
      );
      expect(stored.rows).toEqual([
        { apn: '1', owner_name: 'NGUYEN LAN' },
        { apn: '2', owner_name: 'SMITH JOHN' },
        { apn: '3', owner_name: 'DOE JANE' },
      ]);
      // The batches' COPYs ran one after the other: ids follow the file.
      const byId = await db.query<{ apn: string }>('SELECT apn FROM property_records ORDER BY id');
      expect(byId.rows.map((r) => r.apn)).toEqual(['2', '1', '3']);
      const stats = await db.query<{ reltuples: number }>(
        `SELECT reltuples::float8 AS reltuples FROM pg_class WHERE oid = 'property_records'::regclass`,
      );
      expect(stats.rows[0]!.reltuples).toBe(3);
      const leftovers = await db.query(
        `SELECT relname FROM pg_class WHERE relname ~ '^property_records_(load|stage)_'`,
      );
      expect(leftovers.rows).toEqual([]);
      // A store with records: the next file is upserted batch by batch, ids continuing.
      const next = await runPropertyImport(
        db,
        'apn,street_address,city,state,zip_code,owner_name\n4,18 Oak Ave,Austin,TX,78701,ROE AL\n',
      );
      expect(next.counts).toEqual({ read: 1, imported: 1, duplicates: 0, rejected: 0 });
      const ids = (await db.query<{ id: string }>('SELECT id FROM property_records ORDER BY id')).rows.map((r) =>
        BigInt(r.id),
      );
      expect(new Set(ids).size).toBe(4);
    });

    it('joins a situs split into number, direction, street, suffix and unit columns, as many rolls write it', async () => {
      const situsOf = async () =>
        (
          await db.query<{ apn: string; street_address: string; address_key: string; unit_key: string }>(
            'SELECT apn, street_address, address_key, unit_key FROM property_records ORDER BY apn',
          )
        ).rows;
      const split = [
        'PARCEL_ID,SITUS_HOUSE_NO,SITUS_DIR,SITUS_STREET_NAME,SITUS_STREET_TYPE,SITUS_UNIT,SITUS_CITY,SITUS_STATE,SITUS_ZIP,OWNER',
        '1,120,N,Lamar,Blvd,4B,Austin,TX,78703,OKAFOR MARY A',
        '2,7,,Oak,Ave,Apt 2,Austin,TX,78701,DOE JOHN',
        '3,,,Oak,Ave,,Austin,TX,78701,NOBODY HOME',
      ].join('\n');
      const { counts, rejects } = await runPropertyImport(db, split);
      expect(counts).toEqual({ read: 3, imported: 2, duplicates: 0, rejected: 1 });
      expect(rejects.trim().split('\n').slice(1)).toEqual(['4,missing street_address']);
      const lamar = await situsOf();
      expect(lamar.map((r) => r.street_address)).toEqual(['120 N LAMAR BLVD # 4B', '7 OAK AVE APT 2']);
      expect(lamar[0]!.unit_key).toMatch(/\|4B$/);

      // One street column beside the number: a name alone gets the number, a whole line keeps its own.
      await db.query('TRUNCATE property_records');
      const nameOnly = [
        'APN,SITUS_NUM,SITUS_STREET,SITUS_CITY,SITUS_STATE,SITUS_ZIP,OWNER',
        '1,120,N LAMAR BLVD UNIT 4B,Austin,TX,78703,OKAFOR MARY A',
        '2,7,7 OAK AVE,Austin,TX,78701,DOE JOHN',
      ].join('\n');
      expect((await runPropertyImport(db, nameOnly)).counts.imported).toBe(2);
      const again = await situsOf();
      expect(again.map((r) => r.street_address)).toEqual(['120 N LAMAR BLVD UNIT 4B', '7 OAK AVE']);
      // The same parcel written either way is the same dwelling.
      expect(again[0]!.address_key).toBe(lamar[0]!.address_key);
      expect(again[0]!.unit_key).toBe(lamar[0]!.unit_key);
      await expect(
        runPropertyImport(db, 'SITUS_HOUSE_NO,SITUS_CITY,SITUS_STATE,SITUS_ZIP,OWNER\n1,Austin,TX,78701,X\n'),
      ).rejects.toThrow(/no column for street_address/);
    });

    it('imports NDJSON property records and split owner columns, and refuses a file without an owner column', async () => {
      const line = {
        apn: '9',
        street_address: '3 Bay St',
        city: 'Austin',
        state: 'TX',
        zip_code: '78704',
        'Owner 1 First Name': 'Lan',
        'Owner 1 Last Name': 'Nguyen',
      };
      const { counts } = await runPropertyImport(db, `${JSON.stringify(line)}\n{bad\n`, { format: 'ndjson' });
      expect(counts).toEqual({ read: 2, imported: 1, duplicates: 0, rejected: 1 });
      await expect(
        runPropertyImport(db, 'street_address,city,state,zip_code\n1 A St,Austin,TX,78701\n'),
      ).rejects.toThrow(/no column for owner_name/);
    });
  });
}
