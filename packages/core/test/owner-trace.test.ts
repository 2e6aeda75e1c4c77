/**
 * The owner model end to end on PGlite: people with history and a roll imported, then
 * traced as an investor's list holds them (ADR 0010).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { importContacts, importProperties, importSuppression } from '@skiptrace/contacts';
import { createPgliteDatabase, type Database } from '@skiptrace/storage';
import { createContactTraceEngine } from '../src/index.ts';

const TX = { city: 'Austin', state: 'TX' };
const at = (street_address: string, zip_code: string, first_seen: string, last_seen: string) => ({
  street_address,
  ...TX,
  zip_code,
  first_seen,
  last_seen,
});
const phone = (number: string, type: string, first_seen: string, last_seen: string) => ({
  number,
  type,
  first_seen,
  last_seen,
});

const PEOPLE = [
  // A landlord who never lived at her rentals.
  {
    person_id: 'L1',
    first_name: 'Grace',
    middle_name: 'M',
    last_name: 'Whitfield',
    addresses: [at('40 Ridge Rd', '78705', '2009', '2026-10')],
    phones: [phone('512-555-0101', 'mobile', '2012', '2026-10')],
  },
  // Her tenants at 10 Oak Ave.
  {
    person_id: 'T1',
    first_name: 'Omar',
    last_name: 'Haddad',
    addresses: [at('10 Oak Ave', '78701', '2021-03', '2026-09')],
    phones: [phone('512-555-0102', 'mobile', '2021', '2026-09')],
  },
  // An owner who moved out and rents the house; the roll's mailing address is stale (the property).
  {
    person_id: 'M1',
    first_name: 'Daniel',
    last_name: 'Kowalski',
    addresses: [at('12 Oak Ave', '78701', '2001', '2018-05'), at('900 Lake Dr', '78703', '2018-06', '2026-11')],
    phones: [
      phone('512-555-0103', 'landline', '2001', '2018-05'),
      phone('512-555-0104', 'mobile', '2016', '2026-11'),
      phone('512-555-0105', 'landline', '2018-06', '2026-11'),
    ],
  },
  {
    person_id: 'T2',
    first_name: 'Lucia',
    last_name: 'Ferreira',
    addresses: [at('12 Oak Ave', '78701', '2018-08', '2026-10')],
    phones: [phone('512-555-0106', 'mobile', '2018', '2026-10')],
  },
  // A family trust; the couple lives at the mailing address.
  {
    person_id: 'S1',
    first_name: 'Robert',
    last_name: 'Smith',
    addresses: [at('77 Pine St', '78704', '1999', '2026-08')],
    phones: [phone('512-555-0107', 'mobile', '2010', '2026-08')],
  },
  {
    person_id: 'S2',
    first_name: 'Linda',
    last_name: 'Smith',
    addresses: [at('77 Pine St', '78704', '1999', '2026-08')],
    phones: [phone('512-555-0108', 'mobile', '2011', '2026-07')],
  },
  // Tenants in a company-owned house, one of whom shares the landlord's surname.
  {
    person_id: 'T3',
    first_name: 'Grace',
    last_name: 'Whitfield',
    addresses: [at('30 Oak Ave', '78701', '2020', '2026-10')],
    phones: [phone('512-555-0109', 'mobile', '2020', '2026-10')],
  },
];

const ROLL = [
  'APN,SITUS_ADDR,SITUS_CITY,SITUS_STATE,SITUS_ZIP,OWNER,OWNER2,MAIL_ADDR,MAIL_CITY,MAIL_STATE,MAIL_ZIP',
  '1,10 Oak Ave,Austin,TX,78701,WHITFIELD GRACE M,,40 Ridge Rd,Austin,TX,78705',
  '2,12 Oak Ave,Austin,TX,78701,KOWALSKI DANIEL,,12 Oak Ave,Austin,TX,78701',
  '3,20 Oak Ave,Austin,TX,78701,SMITH FAMILY TRUST,,77 Pine St,Austin,TX,78704',
  '4,30 Oak Ave,Austin,TX,78701,WHITFIELD HOLDINGS LLC,,40 Ridge Rd,Austin,TX,78705',
  '5,50 Oak Ave,Austin,TX,78701,NAKAMURA KENJI,,PO BOX 12,Austin,TX,78701',
].join('\n');

describe('owner trace (PGlite)', () => {
  let db: Database;
  beforeAll(async () => {
    db = createPgliteDatabase();
    await db.migrate();
    await importContacts(db, PEOPLE.map((p) => JSON.stringify(p)).join('\n'), { format: 'ndjson', source: 'people' });
    await importProperties(db, ROLL, { format: 'csv', source: 'roll' });
  }, 60_000);
  afterAll(async () => db?.close());

  const trace = (street_address: string, extra: Record<string, unknown> = {}) =>
    createContactTraceEngine(db).trace({ street_address, ...TX, zip_code: '78701', ...extra });

  it('finds an absentee landlord through the mailing address, before the tenant, who is not flagged owner', async () => {
    const outcome = await trace('10 Oak Ave');
    expect(outcome.results.map((r) => [r.first_name, r.owner, r.resident])).toEqual([
      ['Grace', true, false],
      ['Omar', false, true],
    ]);
    expect(outcome.results[0]!.phones[0]!.number).toBe('+15125550101');
    expect(outcome.results[0]!.current_address).toEqual({
      street_address: '40 RIDGE RD',
      city: 'AUSTIN',
      state: 'TX',
      zip_code: '78705',
    });
    expect(outcome.owners_of_record).toEqual([
      {
        kind: 'person',
        name: 'Grace M Whitfield',
        as_recorded: 'WHITFIELD GRACE M',
        first_name: 'Grace',
        middle_name: 'M',
        last_name: 'Whitfield',
      },
    ]);
    expect(outcome.mailing_address).toEqual({
      street_address: '40 RIDGE RD',
      city: 'AUSTIN',
      state: 'TX',
      zip_code: '78705',
    });
  });

  it('finds an owner who moved out through the property in their history; the number left behind does not lead', async () => {
    const outcome = await trace('12 Oak Ave');
    const owner = outcome.results[0]!;
    expect([owner.first_name, owner.owner, owner.resident]).toEqual(['Daniel', true, false]);
    expect(owner.phones.map((p) => p.number)).toEqual(['+15125550104', '+15125550105', '+15125550103']);
    expect(owner.addresses!.map((a) => [a.street_address, a.last_seen])).toEqual([
      ['900 LAKE DR', '2026-11'],
      ['12 OAK AVE', '2018-05'],
    ]);
    expect(outcome.results.slice(1).map((r) => [r.first_name, r.owner, r.resident])).toEqual([['Lucia', false, true]]);
  });

  it('finds the people behind a family trust by surname at the mailing address', async () => {
    const outcome = await trace('20 Oak Ave');
    expect(outcome.results.map((r) => [r.first_name, r.owner])).toEqual([
      ['Robert', true],
      ['Linda', true],
    ]);
    expect(outcome.owners_of_record![0]).toMatchObject({ kind: 'trust', last_name: 'Smith' });
  });

  it('flags nobody for a company owner, even a tenant sharing a name with its mailing address', async () => {
    const outcome = await trace('30 Oak Ave');
    expect(outcome.results.map((r) => [r.first_name, r.owner, r.resident])).toEqual([['Grace', false, true]]);
    expect(outcome.owners_of_record).toEqual([
      { kind: 'company', name: 'Whitfield Holdings LLC', as_recorded: 'WHITFIELD HOLDINGS LLC' },
    ]);
  });

  it('answers no_match with the owners of record when nobody is found', async () => {
    const outcome = await trace('50 Oak Ave');
    expect(outcome.status).toBe('no_match');
    expect(outcome.owners_of_record).toMatchObject([{ kind: 'person', last_name: 'Nakamura' }]);
    expect(outcome.mailing_address).toMatchObject({ street_address: 'PO BOX 12' });
  });

  it('tells where a person without a person_id lives: at the property a resident, at the mailing address not', async () => {
    await importContacts(
      db,
      'street_address,city,state,zip_code,first_name,last_name,phone_1\n5 Bay St,Austin,TX,78702,Ivan,Petrov,512-555-0120\n60 Oak Ave,Austin,TX,78701,Sam,Lowe,512-555-0121\n',
      { format: 'csv', source: 'flat' },
    );
    await importProperties(
      db,
      'street_address,city,state,zip_code,owner_name,mailing_street_address,mailing_city,mailing_state,mailing_zip_code\n60 Oak Ave,Austin,TX,78701,PETROV IVAN,5 Bay St,Austin,TX,78702\n',
      { format: 'csv', source: 'roll-2' },
    );
    const outcome = await trace('60 Oak Ave');
    expect(outcome.results.map((r) => [r.first_name, r.owner, r.resident])).toEqual([
      ['Ivan', true, false],
      ['Sam', false, true],
    ]);
  });

  it("uses the caller's owner name and mailing address when no record is loaded", async () => {
    const outcome = await trace('99 Elm St', {
      first_name: 'Grace',
      last_name: 'Whitfield',
      mailing_address: { street_address: '40 Ridge Road', ...TX, zip_code: '78705' },
    });
    expect(outcome.results.map((r) => [r.first_name, r.owner, r.resident])).toEqual([['Grace', true, false]]);
    expect(outcome.owners_of_record).toBeUndefined();
    // Without the mailing address nothing ties her to the property.
    expect((await trace('99 Elm St', { first_name: 'Grace', last_name: 'Whitfield' })).status).toBe('no_match');
  });

  it('says an owner has died (deceased: true) and nobody else', async () => {
    await importContacts(
      db,
      JSON.stringify({
        person_id: 'D1',
        first_name: 'Walter',
        last_name: 'Brandt',
        deceased: true,
        addresses: [at('77 Cedar Ln', '78701', '1998', '2025-02')],
        phones: [phone('512-555-0177', 'landline', '1998', '2025-02')],
      }),
      { format: 'ndjson', source: 'people-deceased' },
    );
    const outcome = await trace('77 Cedar Ln', { first_name: 'Walter', last_name: 'Brandt' });
    expect(outcome.results.map((r) => [r.first_name, r.owner, r.deceased])).toEqual([['Walter', true, true]]);
    const living = await trace('10 Oak Ave');
    expect(living.results.every((r) => r.deceased === undefined)).toBe(true);
  });

  it('answers queries that share a record in one batch as it answers each alone', async () => {
    const engine = createContactTraceEngine(db);
    const queries = ['10 Oak Ave', '12 Oak Ave', '10 Oak Ave', '20 Oak Ave', '12 Oak Ave'].map((street_address, i) => ({
      street_address,
      ...TX,
      zip_code: '78701',
      ...(i === 2 ? { first_name: 'Omar', last_name: 'Haddad' } : {}),
    }));
    const together = await engine.traceMany(queries);
    const alone = await Promise.all(queries.map((q) => engine.trace(q)));
    expect(together).toEqual(alone);
    expect(together[1]!.owners_of_record).toEqual(together[4]!.owners_of_record);
    // The engine remembers owners parsed (a record's, a caller's name) across batches: a fresh
    // engine, which has parsed nothing yet, answers every query alike.
    const fresh = await Promise.all(queries.map((q) => createContactTraceEngine(db).trace(q)));
    expect(fresh).toEqual(together);
    const named = {
      street_address: '99 Nowhere Ln',
      ...TX,
      zip_code: '78701',
      first_name: 'Omar',
      last_name: 'Haddad',
    };
    expect(await engine.trace(named)).toEqual(await createContactTraceEngine(db).trace(named));
  });

  it("flags the suppressed numbers of every address of a person, read with their rows or held from the property's", async () => {
    // Daniel's number left behind at the property (his row there), his current landline (his
    // row at 900 Lake Dr, read with his other rows) and the tenant's (her only row).
    await importSuppression(db, '5125550103\n5125550106\n', { kind: 'dnc' });
    await importSuppression(db, '5125550105\n', { kind: 'litigator' });
    const outcome = await trace('12 Oak Ave');
    expect(
      outcome.results.map((r) => [r.first_name, r.phones.map((p) => [p.number.slice(-4), p.dnc, p.litigator])]),
    ).toEqual([
      [
        'Daniel',
        [
          ['0104', false, false],
          ['0105', false, true],
          ['0103', true, false],
        ],
      ],
      ['Lucia', [['0106', true, false]]],
    ]);
  });
});
