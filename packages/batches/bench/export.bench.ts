/**
 * The batch export alone, on PostgreSQL: how fast it renders, and how long it holds the event
 * loop at a time (what a synchronous request sharing the process waits for at each of its
 * event-loop crossings). A batch of N traced rows (two matched people with two phones each,
 * one row in ten no_match) is written with SQL into a fresh database, then exported R times
 * per format into a pipe read by another process (`cat > /dev/null`), with back-pressure, as
 * the route writes to its socket.
 *
 *   node packages/batches/bench/export.bench.ts [--rows 200000] [--rounds 3] [--formats csv,ndjson]
 *     [--page-rows 5000 (BATCH_PAGE_ROWS' default)] [--owners] [--without-cells]
 *
 * --owners: results as the owner model writes them (ADR 0010) — the first person an owner
 * living elsewhere, the second a resident, each with a current address and a two-address
 * history, dated phones — and every traced row's owner facts (two owners of record, the
 * mailing address used).
 * Each row's CSV cells are stored with it as the batch worker stores them (resultCsv, into
 * csv_before/csv_after: rendered here from the rows' stored JSON, then the table rewritten);
 * --without-cells leaves them NULL, as rows stored before migration 077: the CSV export
 * renders those from their results.
 *
 * Prints per export: seconds, rows/s, this process's CPU µs per row, the event-loop delay
 * (perf_hooks.monitorEventLoopDelay, 1 ms resolution: how late a timer due every 1 ms ran)
 * p50 / p99 / max in ms, and a stand-in for a synchronous request sharing the event loop:
 * every 20 ms, ten PostgreSQL round trips (`SELECT 1`) each followed by a turn of the loop
 * (setImmediate), timed end to end (p50 / p99 ms; the same probe with no export: `idle`).
 */
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createPostgresDatabase } from '@skiptrace/storage';
import { createTestDatabaseUrl } from '@skiptrace/testing';
import { BatchesConfig } from '../src/config.ts';
import type { TraceResult } from '@skiptrace/contracts';
import type { OwnerFacts } from '@skiptrace/core';
import { csvHeader, exportText, resultCsv, writeWithBackpressure } from '../src/export.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '3' },
    formats: { type: 'string', default: 'csv,ndjson' },
    'page-rows': { type: 'string' },
    owners: { type: 'boolean', default: false },
    'without-cells': { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const rounds = Number(values.rounds);
const formats = values.formats.split(',') as ('csv' | 'ndjson')[];
const COLUMNS = ['street_address', 'city', 'state', 'zip_code', 'first_name', 'last_name'];

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** Probes at 50/s until stopped: p50 / p99 ms of ten query + turn hops each. */
function startProbes(db: ReturnType<typeof createPostgresDatabase>) {
  const times: number[] = [];
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const t = performance.now();
    const probe = (async () => {
      for (let i = 0; i < 10; i++) {
        await db.query('SELECT 1');
        await new Promise((resolve) => setImmediate(resolve));
      }
      times.push(performance.now() - t);
    })();
    inFlight.add(probe);
    void probe.finally(() => inFlight.delete(probe));
  }, 20);
  return async () => {
    clearInterval(timer);
    await Promise.all(inFlight);
    times.sort((a, b) => a - b);
    const r = (ms: number) => Math.round(ms * 10) / 10;
    return { n: times.length, p50: r(quantile(times, 0.5)), p99: r(quantile(times, 0.99)) };
  };
}

const testDb = await createTestDatabaseUrl('bench_export');
const db = createPostgresDatabase({ url: testDb.url });
try {
  await db.migrate();
  const { rows: made } = await db.query<{ id: string }>(
    `INSERT INTO batches (account_id, status, format, columns, total) VALUES ('acct', 'completed', 'csv', $1::jsonb, $2)
     RETURNING id`,
    [JSON.stringify(COLUMNS), rows],
  );
  const batchId = made[0]!.id;
  await db.query(
    `INSERT INTO properties (account_id, street_address, city, state, zip_code, first_name, last_name, batch_id,
       row_number, input)
     SELECT 'acct', g || ' Main St', 'Austin', 'TX', '78701', 'Ann', 'Lee' || g, $1, g,
            jsonb_build_array(g || ' Main Street', 'Austin', 'TX', '78701-1234', 'ANN', 'Lee' || g)
       FROM generate_series(1, $2::int) g`,
    [batchId, rows],
  );
  const address = (street: string) =>
    `'street_address', ${street}, 'city', 'Austin', 'state', 'TX', 'zip_code', '78701'`;
  const dated = (first: string, last?: string) =>
    values.owners ? `, 'first_seen', '${first}'${last ? `, 'last_seen', '${last}'` : ''}` : '';
  const person = (n: string, owner: boolean) => `json_build_object('first_name', 'Ann', 'last_name', 'Lee' || ${n},
      'confidence', 0.93, 'reasons', json_build_array('address', 'name'),
      ${
        values.owners
          ? `'owner', ${owner}, 'resident', ${!owner},
      'current_address', json_build_object(${address(owner ? `${n} || ' Elm St'` : `g || ' Main St'`)}),
      'addresses', json_build_array(
        json_build_object(${address(owner ? `${n} || ' Elm St'` : `g || ' Main St'`)}${dated('2019-05')}),
        json_build_object(${address(`${n} || ' Oak Ave'`)}${dated('2008', '2019-04')})),`
          : ''
      }
      'phones', json_build_array(
        json_build_object('number', '+1512' || lpad((${n} % 10000000)::text, 7, '0'), 'type', 'mobile', 'dnc', false, 'litigator', false${dated('2019')}),
        json_build_object('number', '+1737' || lpad((${n} % 10000000)::text, 7, '0'), 'type', 'landline', 'dnc', true, 'litigator', false${dated('2008', '2019')})),
      'emails', json_build_array('ann' || ${n} || '@example.com'))`;
  const ownerFacts = values.owners
    ? `json_build_object('owners_of_record', json_build_array(
         json_build_object('kind', 'person', 'name', 'Ann Lee' || g, 'as_recorded', 'LEE' || g || ' ANN & BOB',
           'first_name', 'Ann', 'last_name', 'Lee' || g),
         json_build_object('kind', 'person', 'name', 'Bob Lee' || g, 'as_recorded', 'LEE' || g || ' ANN & BOB',
           'first_name', 'Bob', 'last_name', 'Lee' || g)),
       'mailing_address', json_build_object(${address(`g || ' Elm St'`)}))`
    : 'NULL';
  await db.query(
    `INSERT INTO batch_results (batch_id, row_number, account_id, trace_key, status, error, results, owner_facts)
     SELECT $1::bigint, g, 'acct', md5(g::text)::uuid,
            CASE WHEN g % 10 = 0 THEN 'no_match' ELSE 'completed' END,
            CASE WHEN g % 10 = 0 THEN 'no owner found' END,
            CASE WHEN g % 10 = 0 THEN '[]'::json ELSE json_build_array(${person('g', true)}, ${person('(g + 1)', false)}) END,
            ${ownerFacts}
       FROM generate_series(1, $2::int) g`,
    [batchId, rows],
  );
  if (!values['without-cells']) {
    for (let from = 1; from <= rows; from += 10_000) {
      const { rows: stored } = await db.query<{
        row_number: number;
        status: string;
        error: string | null;
        results: string;
        people_total: number | null;
        owner_facts: string | null;
      }>(
        `SELECT row_number, status, error, results::text AS results, people_total, owner_facts::text AS owner_facts
           FROM batch_results WHERE batch_id = $1::bigint AND row_number BETWEEN $2 AND $3`,
        [batchId, from, from + 9_999],
      );
      const cells = stored.map((r) =>
        resultCsv({
          status: r.status,
          error: r.error,
          results: JSON.parse(r.results) as TraceResult[],
          people_total: r.people_total,
          owner_facts: r.owner_facts === null ? null : (JSON.parse(r.owner_facts) as OwnerFacts),
        }),
      );
      await db.query(
        `UPDATE batch_results r SET csv_before = u.before, csv_after = u.after
           FROM unnest($2::int[], $3::text[], $4::text[]) AS u(row_number, before, after)
          WHERE r.batch_id = $1::bigint AND r.row_number = u.row_number`,
        [batchId, stored.map((r) => r.row_number), cells.map((c) => c.before), cells.map((c) => c.after)],
      );
    }
    // As the worker leaves it: one version of each row, written once.
    await db.query('VACUUM FULL batch_results');
  }
  await db.query('ANALYZE properties');
  await db.query('ANALYZE batch_results');
  const { pageRows } = BatchesConfig.parse({ pageRows: values['page-rows'] && Number(values['page-rows']) });
  const batch = { id: batchId, total: rows, width: COLUMNS.length };
  const idle = startProbes(db);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  console.log(JSON.stringify({ idleProbeMs: await idle() }));
  for (let round = 1; round <= rounds; round++) {
    for (const format of formats) {
      const probes = startProbes(db);
      const sink = spawn('sh', ['-c', 'cat > /dev/null'], { stdio: ['pipe', 'ignore', 'inherit'] });
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      const cpu = process.cpuUsage();
      const t = performance.now();
      let bytes = 0;
      if (format === 'csv') await writeWithBackpressure(sink.stdin, csvHeader(COLUMNS));
      for await (const text of exportText(db, batch, format, pageRows)) {
        bytes += text.length;
        await writeWithBackpressure(sink.stdin, text);
      }
      const seconds = (performance.now() - t) / 1000;
      const used = process.cpuUsage(cpu);
      delay.disable();
      const probeMs = await probes();
      sink.stdin.end();
      await new Promise((resolve) => sink.once('exit', resolve));
      const ms = (ns: number) => Math.round(ns / 1e5) / 10;
      console.log(
        JSON.stringify({
          round,
          format,
          rows,
          seconds: Math.round(seconds * 100) / 100,
          rowsPerSecond: Math.round(rows / seconds),
          cpuMicrosPerRow: Math.round(((used.user + used.system) / rows) * 10) / 10,
          megabytes: Math.round(bytes / 1e5) / 10,
          eventLoopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
          probeMs,
        }),
      );
    }
  }
} finally {
  await db.close();
  await testDb.drop();
}
