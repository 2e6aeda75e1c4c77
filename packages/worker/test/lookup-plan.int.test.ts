import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Property } from '@skiptrace/contracts';
import { importContacts, importProperties } from '@skiptrace/contacts';
import { createContactTraceEngine } from '@skiptrace/core';
import {
  demoQueryFor,
  generateContacts,
  generateOwnerWorld,
  ownerWorldPeopleNdjson,
  ownerWorldPropertyCsv,
} from '@skiptrace/demo';
import { createPostgresDatabase, type Database, type Sql } from '@skiptrace/storage';
import { createTestDatabaseUrl, type TestDatabase } from '@skiptrace/testing';

// The plan of the candidate lookup right after a contact import, on the real PostgreSQL
// (issue #12: without statistics, every chunk's lookup of a user's first batch was a
// sequential scan of `contacts`). The test records the statements the production trace
// engine runs and EXPLAINs each one that reads `contacts` with the same parameters, so
// it follows the lookup whatever shape it takes. The store is large enough (60,000 rows)
// that a sequential scan is the wrong plan for a chunk of keys.
const CONTACTS = 60_000;
const CHUNK = 500;
const seed = 12;

interface Statement {
  text: string;
  params: unknown[] | undefined;
}

/** A Sql that remembers every statement it passes on. */
function recording(db: Sql): Sql & { statements: Statement[] } {
  const statements: Statement[] = [];
  return {
    statements,
    query(text, params) {
      statements.push({ text, params });
      return db.query(text, params);
    },
  };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function* nodes(plan: PlanNode): Generator<PlanNode> {
  yield plan;
  for (const child of plan.Plans ?? []) yield* nodes(child);
}

/** A parameter as an SQL literal, for EXECUTE (arrays in PostgreSQL's array text form). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = Array.isArray(value)
    ? `{${value.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`
    : String(value);
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The plan of a statement with these parameters: the custom plan (EXPLAIN with the values,
 * as an unnamed statement is planned), or the generic plan a prepared statement may settle on
 * (PREPARE, then EXPLAIN EXECUTE under plan_cache_mode = force_generic_plan; `db` must have
 * one connection, so the three statements share a session).
 */
async function planOf(db: Database, text: string, params: unknown[] | undefined, generic: boolean): Promise<PlanNode> {
  type Explained = { 'QUERY PLAN': { Plan: PlanNode }[] };
  if (!generic)
    return (await db.query<Explained>(`EXPLAIN (FORMAT JSON) ${text}`, params)).rows[0]!['QUERY PLAN'][0]!.Plan;
  await db.query('SET plan_cache_mode = force_generic_plan');
  await db.query(`PREPARE plan_probe AS ${text}`);
  try {
    const args = (params ?? []).map(literal).join(', ');
    const { rows } = await db.query<Explained>(`EXPLAIN (FORMAT JSON) EXECUTE plan_probe${args ? `(${args})` : ''}`);
    return rows[0]!['QUERY PLAN'][0]!.Plan;
  } finally {
    await db.query('DEALLOCATE plan_probe');
    await db.query('RESET plan_cache_mode');
  }
}

/** Node types of the plan of each recorded statement that reads one of `tables`, on the tables' rows. */
async function lookupPlans(db: Database, statements: Statement[], tables = ['contacts'], generic = false) {
  const plans: { text: string; scans: string[] }[] = [];
  for (const { text, params } of statements) {
    if (!tables.some((table) => new RegExp(`\\b${table}\\b`, 'i').test(text))) continue;
    const plan = await planOf(db, text, params, generic);
    const scans = [...nodes(plan)]
      .filter((node) => tables.includes(node['Relation Name'] ?? ''))
      .map((node) => node['Node Type']);
    plans.push({ text, scans });
  }
  return plans;
}

/** Fails, naming the statement, when a plan scans one of its tables sequentially. */
function expectIndexedOnly(plans: { text: string; scans: string[] }[]): void {
  expect(plans.length).toBeGreaterThan(0);
  for (const plan of plans) {
    expect(plan.scans.length).toBeGreaterThan(0);
    expect({ text: plan.text, scans: plan.scans.filter((s) => s === 'Seq Scan') }).toEqual({
      text: plan.text,
      scans: [],
    });
  }
}

let testDb: TestDatabase;
let db: Database;
const rows = [...generateContacts({ rows: CONTACTS, seed })];

beforeAll(async () => {
  testDb = await createTestDatabaseUrl('lookup_plan');
  db = createPostgresDatabase({ url: testDb.url });
  await db.migrate();
  async function* ndjson() {
    for (const row of rows) yield `${JSON.stringify(row)}\n`;
  }
  const counts = await importContacts(db, ndjson(), { format: 'ndjson', source: 'plan-test' });
  expect(counts.imported).toBe(CONTACTS);
}, 300_000);

afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

/** Noisy variants of stored rows spread over the whole file, as a batch chunk holds them. */
function chunkOfQueries(n: number, variant: number): Property[] {
  const stride = Math.floor(CONTACTS / n);
  return Array.from({ length: n }, (_, i) => demoQueryFor(rows[i * stride]!, variant) as Property);
}

describe('candidate lookup plan right after a contact import', () => {
  it('the import left statistics on contacts', async () => {
    const { rows: stats } = await db.query<{ reltuples: number }>(
      `SELECT reltuples::float8 AS reltuples FROM pg_class WHERE relname = 'contacts'`,
    );
    expect(stats[0]!.reltuples).toBeGreaterThan(CONTACTS / 2);
  });

  it.each([
    ['a batch chunk', CHUNK],
    ['one synchronous request', 1],
  ])('%s: no sequential scan of contacts', async (_name, n) => {
    const sql = recording(db);
    const engine = createContactTraceEngine(sql);
    const outcomes = await engine.traceMany(chunkOfQueries(n, 3));
    // The lookup really ran and found people (otherwise the plans below prove nothing).
    expect(outcomes.filter((o) => o.status === 'completed').length).toBeGreaterThan(n / 2);
    expectIndexedOnly(await lookupPlans(db, sql.statements));
  });
});

// The owner model's reads (people by person_key, property records by address key) are
// prepared statements (@skiptrace/storage prepared()): after five executions PostgreSQL may
// keep a generic plan, planned without the parameters' values. Both plans, custom and
// generic, must probe the indexes at a chunk's size and at one request's.
describe('owner-model lookup plans, custom and generic', () => {
  const PEOPLE = 5_000;
  let ownerDb: TestDatabase;
  let one: Database;
  const world = generateOwnerWorld({ people: PEOPLE, seed });

  beforeAll(async () => {
    ownerDb = await createTestDatabaseUrl('lookup_plan_owners');
    // One connection: planOf's PREPARE, EXPLAIN EXECUTE and DEALLOCATE share a session.
    one = createPostgresDatabase({ url: ownerDb.url, max: 1 });
    await one.migrate();
    await importContacts(one, ownerWorldPeopleNdjson(world.people), { format: 'ndjson', source: 'plan-test' });
    await importProperties(one, ownerWorldPropertyCsv(world.parcels), { format: 'csv', source: 'plan-roll' });
  }, 300_000);

  afterAll(async () => {
    await one?.close();
    await ownerDb?.drop();
  });

  // Parcels whose owners are in the people data, spread over the roll.
  const owned = world.parcels.filter((_, i) => world.truth.parcels[i]!.owners.length > 0);
  const situs = (n: number): Property[] => {
    const stride = Math.max(1, Math.floor(owned.length / n));
    return Array.from({ length: n }, (_, i) => {
      const p = owned[(i * stride) % owned.length]!;
      return { street_address: p.street_address, city: p.city, state: p.state, zip_code: p.zip_code } as Property;
    });
  };

  it.each([
    ['a batch chunk', CHUNK, false],
    ['a batch chunk', CHUNK, true],
    ['one synchronous request', 1, false],
    ['one synchronous request', 1, true],
  ])('%s (%i rows), generic plan %s: people and records read by index', async (_name, n, generic) => {
    const sql = recording(one);
    const outcomes = await createContactTraceEngine(sql).traceMany(situs(n));
    expect(outcomes.some((o) => o.results.some((r) => r.owner === true))).toBe(true);
    const people = sql.statements.filter((s) => /\bperson_key\b/.test(s.text));
    const records = sql.statements.filter((s) => /\bproperty_records\b/.test(s.text));
    expect(people.length).toBeGreaterThan(0);
    expect(records.length).toBeGreaterThan(0);
    expectIndexedOnly(await lookupPlans(one, [...people, ...records], ['contacts', 'property_records'], generic));
  });
});
