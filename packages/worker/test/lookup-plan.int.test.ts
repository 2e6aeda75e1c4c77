import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Property } from '@skiptrace/contracts';
import { importContacts } from '@skiptrace/contacts';
import { createContactTraceEngine } from '@skiptrace/core';
import { demoQueryFor, generateContacts } from '@skiptrace/demo';
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

/** Node types of the plan of each recorded statement that reads `contacts`. */
async function lookupPlans(db: Database, statements: Statement[]) {
  const plans: { text: string; scans: string[] }[] = [];
  for (const { text, params } of statements) {
    if (!/\bcontacts\b/i.test(text)) continue;
    const { rows } = await db.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${text}`, params);
    const plan = rows[0]!['QUERY PLAN'][0]!.Plan;
    const scans = [...nodes(plan)]
      .filter((node) => node['Relation Name'] === 'contacts')
      .map((node) => node['Node Type']);
    plans.push({ text, scans });
  }
  return plans;
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
    const plans = await lookupPlans(db, sql.statements);
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      expect(plan.scans.length).toBeGreaterThan(0);
      expect({ text: plan.text, scans: plan.scans.filter((s) => s === 'Seq Scan') }).toEqual({
        text: plan.text,
        scans: [],
      });
    }
  });
});
