// The household cap end to end below the API: an address-only query returns the best
// `maxPeople` residents and says how many matched; an address holding more contacts than its
// candidate block reads says so too; the stored row carries it to the response.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { importContacts } from '@skiptrace/contacts';
import { createPgliteDatabase, type Database } from '@skiptrace/storage';
import {
  completeProperty,
  createContactTraceEngine,
  DEFAULT_MAX_PEOPLE,
  getProperty,
  insertProperty,
  toResponse,
  type BatchRows,
} from '../src/index.ts';

/** Only single traces here: no property is a batch row. */
const noBatchRows: BatchRows = {
  outcomes: (_sql, rows) => Promise.resolve(rows.map(() => undefined)),
  erase: () => Promise.reject(new Error('no batch rows in this test')),
  settled: () => Promise.resolve(),
  outcomeSql: () => `(SELECT NULL::text AS status, NULL::jsonb AS results WHERE false)`,
};

const BIG = { street_address: '500 Elm St', city: 'Springfield', state: 'IL', zip_code: '62701' };
const SMALL = { street_address: '12 Oak Ave', city: 'Springfield', state: 'IL', zip_code: '62701' };
const FIRST = ['Ann', 'Bruno', 'Carmen', 'Dmitri', 'Esther', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jamal', 'Kofi', 'Lena'];

let db: Database;

beforeAll(async () => {
  db = createPgliteDatabase();
  await db.migrate();
  const rows = [
    // 12 people in one building without unit numbers (group quarters).
    ...FIRST.map((first, i) => ({ ...BIG, first_name: first, last_name: `Resident${i}`, i })),
    { ...SMALL, first_name: 'Maria', last_name: 'Lopez', i: 20 },
    { ...SMALL, first_name: 'Jose', last_name: 'Lopez', i: 21 },
  ];
  async function* ndjson() {
    for (const { i, ...r } of rows)
      yield `${JSON.stringify({ ...r, phone_1: `+1217555${String(100 + i).padStart(4, '0')}`, phone_1_type: 'mobile' })}\n`;
  }
  await importContacts(db, ndjson(), { format: 'ndjson', source: 'test' });
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe('address-only queries and the household cap', () => {
  it('returns everyone at a household under the cap, ranked, with reasons, and no count', async () => {
    const outcome = await createContactTraceEngine(db).trace(SMALL);
    expect(outcome.status).toBe('completed');
    expect(outcome.results.map((r) => r.first_name).sort()).toEqual(['Jose', 'Maria']);
    for (const r of outcome.results) expect(r.reasons.length).toBeGreaterThan(0);
    expect(outcome.matched).toBeUndefined();
  });

  it('returns the best maxPeople of a larger household and how many matched', async () => {
    expect(DEFAULT_MAX_PEOPLE).toBe(10);
    const byDefault = await createContactTraceEngine(db).trace(BIG);
    expect(byDefault.results).toHaveLength(10);
    expect(byDefault.matched).toBe(12);
    const capped = await createContactTraceEngine(db, { maxPeople: 3 }).trace(BIG);
    expect(capped.results).toHaveLength(3);
    expect(capped.matched).toBe(12);
    const confidences = capped.results.map((r) => r.confidence);
    expect([...confidences].sort((a, b) => b - a)).toEqual(confidences);
  });

  it('says so when the address holds more contacts than its candidate block reads', async () => {
    const candidateLimits = { address: 5, zipNumber: 25, cityNumber: 25 };
    const engine = createContactTraceEngine(db, { candidateLimits, maxPeople: 20 });
    const all = await engine.trace(BIG);
    expect(all.results).toHaveLength(5);
    expect(all.matched).toBe(5); // a lower bound: seven were never read
    // A named query there that finds nobody may have missed someone not compared.
    const named = await engine.trace({ ...BIG, first_name: 'Zelda', last_name: 'Nobody' });
    expect(named).toMatchObject({ status: 'no_match', matched: 0 });
    // Under the block's bound nothing is flagged.
    expect((await engine.trace(SMALL)).matched).toBeUndefined();
  });

  it('says so too when a misspelt street reads a full (ZIP, house number) block', async () => {
    const candidateLimits = { address: 200, zipNumber: 3, cityNumber: 25 };
    const misspelt = { ...BIG, street_address: '500 Elmm St' };
    const cut = await createContactTraceEngine(db, { candidateLimits }).trace(misspelt);
    expect(cut.matched).toBe(3);
    const whole = await createContactTraceEngine(db, { maxPeople: 20 }).trace(misspelt);
    expect(whole.results).toHaveLength(12);
    expect(whole.matched).toBeUndefined();
  });

  it('rejects a cap that is not a positive integer', () => {
    expect(() => createContactTraceEngine(db, { maxPeople: 0 })).toThrow(RangeError);
  });

  it('stores the count with the result and answers truncated and people_total', async () => {
    const capped = await createContactTraceEngine(db, { maxPeople: 3 }).trace(BIG);
    const row = await insertProperty(db, 'acct-cap', BIG);
    const stored = await completeProperty(db, row.id, capped);
    expect(toResponse(stored!)).toMatchObject({ status: 'completed', truncated: true, people_total: 12 });
    const read = toResponse((await getProperty(db, noBatchRows, 'acct-cap', row.id))!);
    expect(read).toMatchObject({ truncated: true, people_total: 12 });
    expect(read.results).toHaveLength(3);

    const whole = await createContactTraceEngine(db).trace(SMALL);
    const small = await insertProperty(db, 'acct-cap', SMALL);
    await completeProperty(db, small.id, whole);
    const plain = toResponse((await getProperty(db, noBatchRows, 'acct-cap', small.id))!);
    expect(plain.truncated).toBe(false);
    expect(plain).not.toHaveProperty('people_total');
  });
});
