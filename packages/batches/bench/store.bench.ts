/**
 * PostgreSQL CPU of a batch chunk's own statements, before and after the batch_results table
 * (migration 070), alternating in the same minutes on one fresh database:
 *
 *   before: load the pending rows; probe reuse per distinct key (jsonb_to_recordset + LATERAL);
 *           UPDATE the chunk's `properties` rows from one jsonb object (commit 2cdd212).
 *   after:  load the pending rows with reuse folded in (LOAD_PENDING); INSERT the outcomes into
 *           batch_results from unnest (STORE_OUTCOMES), the statements the chunk handler runs.
 *
 * Two batches of --rows rows each (one per variant) are copied in as the upload does and
 * analysed; then blocks of --block chunks of 500 rows run for each variant in turn. The CPU
 * is the database's backends' (utime + stime from /proc), so the trace engine, the broker and
 * Node are left out: this is only the chunk's storage cost, the part this change touched.
 *
 *   node packages/batches/bench/store.bench.ts [--rows 100000] [--block 20]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createPostgresDatabase, jsonDocumentsParam, type Database } from '@skiptrace/storage';
import { createTestDatabaseUrl } from '@skiptrace/testing';
import { phonesIn } from '@skiptrace/usage';
import type { TraceResult } from '@skiptrace/contracts';
import { LOAD_PENDING, mobileIn, STORE_OUTCOMES } from '../src/chunk.handler.ts';
import { resultCsv } from '../src/export.ts';
import { csvCellsParams } from '../src/results.ts';
import { BATCH_INPUT_COLUMNS } from '@skiptrace/core';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '100000' }, block: { type: 'string', default: '20' } },
});
const ROWS = Number(values.rows);
const BLOCK = Number(values.block);
const CHUNK = 500;
const TTL = 86_400;

const BEFORE_LOAD = `SELECT id, street_address, city, state, zip_code, first_name, last_name FROM properties
  WHERE batch_id = $1 AND row_number BETWEEN $2 AND $3 AND status = 'pending' ORDER BY row_number`;
const BEFORE_REUSE = `
SELECT k.key, r.status, r.results, r.error, r.people_total
  FROM jsonb_to_recordset($2::jsonb) AS k(key text, street text, zip5 text, city text, state text, fn text, ln text)
 CROSS JOIN LATERAL (
   SELECT p.status, p.results, p.error, p.people_total FROM properties p
    WHERE p.account_id = $1 AND lower(p.street_address) = k.street AND left(p.zip_code, 5) = k.zip5
      AND p.status IN ('completed', 'no_match')
      AND p.completed_at > now() - make_interval(secs => $3::double precision)
      AND lower(p.city) = k.city AND upper(p.state) = k.state
      AND lower(coalesce(p.first_name, '')) = k.fn AND lower(coalesce(p.last_name, '')) = k.ln
    ORDER BY p.completed_at DESC LIMIT 1) r`;
const BEFORE_STORE = `
WITH changed AS (
  UPDATE properties p
     SET status = o.m -> p.id::text ->> 'status', results = o.m -> p.id::text -> 'results',
         error = o.m -> p.id::text ->> 'error', people_total = (o.m -> p.id::text ->> 'matched')::int,
         completed_at = now()
    FROM (SELECT $2::jsonb AS m) o
   WHERE p.batch_id = $1 AND p.row_number BETWEEN $4 AND $5 AND p.status = 'pending' AND o.m ? p.id::text
  RETURNING p.status, (o.m -> p.id::text ->> 'reused')::boolean AS reused
), counts AS (
  SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'completed')::int AS matched,
         count(*) FILTER (WHERE status = 'no_match')::int AS no_match,
         count(*) FILTER (WHERE status = 'failed')::int AS failed, count(*) FILTER (WHERE reused)::int AS reused
    FROM changed
)
UPDATE batches b
   SET processed = b.processed + c.n, matched = b.matched + c.matched, no_match = b.no_match + c.no_match,
       failed = b.failed + c.failed, reused = b.reused + c.reused, updated_at = now()
  FROM counts c WHERE b.id = $3
RETURNING b.processed + b.rejected >= b.total AS done`;

/** A result document of the size the real engine returns for a match (two people, phones, emails). */
function results(i: number): unknown[] {
  const person = (n: number) => ({
    first_name: `First${i}`,
    last_name: `Last${n}`,
    confidence: 0.93,
    phones: [0, 1, 2].map((k) => ({
      number: `+1512${String(i * 7 + k).padStart(7, '0')}`,
      type: 'mobile',
      dnc: false,
      litigator: false,
    })),
    emails: [`first${i}.last${n}@example.com`],
  });
  return i % 10 === 0 ? [] : [person(1), person(2)];
}

async function backendCpuMs(db: Database): Promise<number> {
  const { rows } = await db.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`,
  );
  let ms = 0;
  for (const { pid } of rows) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
      ms += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // a backend that ended
    }
  }
  return ms;
}

async function newBatch(db: Database, account: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO batches (account_id, format, status, total) VALUES ($1, 'csv', 'running', $2) RETURNING id`,
    [account, ROWS],
  );
  const id = rows[0]!.id;
  const data = Array.from({ length: ROWS }, (_, k) => {
    const i = k + 1;
    const street = `${i} Main St`;
    return [
      account,
      street,
      'Austin',
      'TX',
      '78701',
      'Ann',
      `Lee${i}`,
      id,
      i,
      [street, 'Austin', 'TX', '78701', 'Ann', `Lee${i}`],
    ];
  });
  await db.copyRows('properties', BATCH_INPUT_COLUMNS, data);
  await db.query(
    `INSERT INTO batch_chunks (batch_id, from_row, to_row, state)
     SELECT $1::bigint, g, LEAST(g + $2 - 1, $3), 'queued' FROM generate_series(1, $3, $2) AS g`,
    [id, CHUNK, ROWS],
  );
  return id;
}

const test = await createTestDatabaseUrl('bench_store');
const db = createPostgresDatabase({ url: test.url, max: 2 });
try {
  await db.migrate();
  const before = await newBatch(db, 'acct-before');
  const after = await newBatch(db, 'acct-after');
  await db.query('ANALYZE properties');
  const cpu = { before: { load: 0, store: 0 }, after: { load: 0, store: 0 } };
  const time = { before: 0, after: 0 };

  async function runBefore(from: number, to: number) {
    const { rows } = await db.query<{
      id: string;
      street_address: string;
      city: string;
      state: string;
      zip_code: string;
      first_name: string;
      last_name: string;
    }>(BEFORE_LOAD, [before, from, to]);
    const keys = rows.map((r) => ({
      key: r.id,
      street: r.street_address.toLowerCase(),
      zip5: r.zip_code.slice(0, 5),
      city: r.city.toLowerCase(),
      state: r.state.toUpperCase(),
      fn: r.first_name.toLowerCase(),
      ln: r.last_name.toLowerCase(),
    }));
    await db.query(BEFORE_REUSE, ['acct-before', JSON.stringify(keys), TTL]);
    const byId: Record<string, unknown> = {};
    rows.forEach((r, k) => {
      const i = from + k;
      const res = results(i);
      byId[r.id] = {
        status: res.length ? 'completed' : 'no_match',
        results: res,
        error: res.length ? null : 'no owner found',
        reused: false,
      };
    });
    return { rows: rows.length, store: () => db.query(BEFORE_STORE, [before, JSON.stringify(byId), before, from, to]) };
  }

  async function runAfter(from: number, to: number) {
    const { rows } = await db.query<{ row_number: number }>(LOAD_PENDING, [after, after, from, to, TTL]);
    const n = rows.map((r) => r.row_number);
    const res = n.map(results);
    const args = [
      after,
      after,
      from,
      to,
      n,
      res.map((r) => (r.length ? 'completed' : 'no_match')),
      n.map(() => false),
      res.map((r) => (r.length ? null : 'no owner found')),
      jsonDocumentsParam(res.map((r) => JSON.stringify(r))),
      n.map(() => null),
      jsonDocumentsParam(n.map(() => null)),
      res.map((r) => phonesIn(r as { phones?: unknown[] }[])),
      res.map((r) => mobileIn(r as { phones?: { type?: string }[] }[])),
      ...csvCellsParams(
        res.map((r) =>
          resultCsv({
            status: r.length ? 'completed' : 'no_match',
            error: r.length ? null : 'no owner found',
            results: r as TraceResult[],
            people_total: null,
            owner_facts: null,
          }),
        ),
      ),
    ];
    return {
      rows: rows.length,
      store: () =>
        db.transaction(async (tx) => {
          await tx.query(`SELECT status FROM batches WHERE id = $1::bigint FOR UPDATE`, [after]);
          return tx.query(STORE_OUTCOMES, args);
        }),
    };
  }

  const chunks = Math.ceil(ROWS / CHUNK);
  for (let c0 = 0; c0 < chunks; c0 += BLOCK) {
    for (const variant of ['before', 'after'] as const) {
      const t = performance.now();
      for (let c = c0; c < Math.min(c0 + BLOCK, chunks); c++) {
        const from = c * CHUNK + 1;
        const to = Math.min(from + CHUNK - 1, ROWS);
        const a = await backendCpuMs(db);
        const step = await (variant === 'before' ? runBefore(from, to) : runAfter(from, to));
        const b = await backendCpuMs(db);
        await step.store();
        const d = await backendCpuMs(db);
        cpu[variant].load += b - a;
        cpu[variant].store += d - b;
      }
      time[variant] += performance.now() - t;
    }
  }
  const perRow = (ms: number) => Math.round(((ms * 1000) / ROWS) * 10) / 10;
  const sizes = await db.query<{ rel: string; mb: number }>(
    `SELECT relname AS rel, round(pg_total_relation_size(oid) / 1048576.0)::int AS mb FROM pg_class
     WHERE relname IN ('properties', 'batch_results')`,
  );
  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString(),
        rows: ROWS,
        block: BLOCK,
        load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
        postgresCpuMicrosPerRow: {
          before: {
            load: perRow(cpu.before.load),
            store: perRow(cpu.before.store),
            total: perRow(cpu.before.load + cpu.before.store),
          },
          after: {
            load: perRow(cpu.after.load),
            store: perRow(cpu.after.store),
            total: perRow(cpu.after.load + cpu.after.store),
          },
        },
        wallMicrosPerRow: { before: perRow(time.before), after: perRow(time.after) },
        tableSizesMiB: Object.fromEntries(sizes.rows.map((r) => [r.rel, r.mb])),
      },
      null,
      2,
    ),
  );
} finally {
  await db.close();
  await test.drop();
}
