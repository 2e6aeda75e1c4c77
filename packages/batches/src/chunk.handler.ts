/**
 * The worker side: traces one chunk of a batch with set-based reads and one bulk write.
 * A chunk costs four statements besides the trace: the batch's status, its pending rows
 * with any reusable earlier result (one query), and in one transaction the batch row's
 * lock (share mode: chunks of one batch store in parallel), the chunk marked done with the
 * next one claimed, and the outcomes inserted into batch_results (one INSERT … SELECT FROM
 * unnest) with the chunk's own counters grown by the rows inserted (a batch's counters add
 * up its chunks': BATCH_FROM). Redelivery is harmless: a chunk marked done loads no row, a
 * row that has a result is not inserted again (ON CONFLICT DO NOTHING on its (batch_id,
 * row_number)), and the counters count only inserts.
 */
import type { TraceResult } from '@skiptrace/contracts';
import { ownerFactsOf, propertyOf, type OwnerFacts, type PropertyColumns, type TraceEngine } from '@skiptrace/core';
import type { BusDelivery, Consumer, MessageBus } from '@skiptrace/messaging';
import { recordBatchRows, type Logger } from '@skiptrace/runtime';
import { jsonDocumentsParam, jsonDocumentsSql, prepared, type Database } from '@skiptrace/storage';
import { phonesIn, usageUpsertSql, UTC_DAY_SQL } from '@skiptrace/usage';
import { TRACED_STATES } from './batch.repository.ts';
import { BatchWorkerConfig } from './config.ts';
import { CHUNK_QUEUE, claimChunks, completeIfDone, publishChunks, sweepBatches } from './dispatch.ts';
import { failedResultCsv, resultCsv, type CsvOutcome, type ResultCsv } from './export.ts';
import { csvCellsParams, lockBatch, traceKeySql } from './results.ts';

export interface BatchChunkHandlerDeps {
  db: Database;
  bus: MessageBus;
  engine: TraceEngine;
  logger: Logger;
  config?: Partial<Pick<BatchWorkerConfig, 'maxAttempts' | 'reuseTtlSeconds'>>;
}

type Status = 'completed' | 'no_match' | 'failed';

/** A pending row of the chunk, with the newest reusable stored result of its key, if any. */
type PendingRow = PropertyColumns & {
  row_number: number;
} & StoredResult<'q'> &
  StoredResult<'r'> & {
    /** The batch result's CSV cells (ResultCsv), when stored with them. */
    r_csv_before: string | null;
    r_csv_after: string | null;
  };

/** A reusable stored result (q: synchronous, r: batch); the results as JSON text, passed through unparsed. */
type StoredResult<P extends string> = { [K in `${P}_status`]: 'completed' | 'no_match' | null } & {
  [K in `${P}_results` | `${P}_error` | `${P}_owner_facts`]: string | null;
} & { [K in `${P}_people_total` | `${P}_at`]: number | null };

/** The newer of a row's two reusable results, if any. */
function reusable(row: PendingRow): KeyOutcome | undefined {
  const useBatch = row.r_status !== null && (row.q_status === null || row.r_at! >= row.q_at!);
  if (useBatch) {
    const stored = {
      status: row.r_status!,
      error: row.r_error,
      results: row.r_results!,
      ownerFacts: row.r_owner_facts,
    };
    return {
      ...stored,
      peopleTotal: row.r_people_total,
      csv:
        row.r_csv_before !== null && row.r_csv_after !== null
          ? { before: row.r_csv_before, after: row.r_csv_after }
          : storedResultCsv(stored, row.r_people_total),
      reused: true,
      phones: -1,
      mobile: -1,
    };
  }
  if (row.q_status === null) return undefined;
  const stored = { status: row.q_status, error: row.q_error, results: row.q_results!, ownerFacts: row.q_owner_facts };
  return {
    ...stored,
    peopleTotal: row.q_people_total,
    csv: storedResultCsv(stored, row.q_people_total),
    reused: true,
    phones: -1,
    mobile: -1,
  };
}

/** The CSV cells of a stored result (results and owner facts as JSON text), parsed for them. */
const storedResultCsv = (
  stored: Pick<KeyOutcome, 'status' | 'error' | 'results' | 'ownerFacts'>,
  peopleTotal: number | null,
): ResultCsv =>
  resultCsv({
    status: stored.status,
    error: stored.error,
    results: JSON.parse(stored.results) as TraceResult[],
    people_total: peopleTotal,
    owner_facts: stored.ownerFacts === null ? null : (JSON.parse(stored.ownerFacts) as OwnerFacts),
  });

/**
 * What makes two rows "the same lookup" inside a chunk: address and owner name,
 * case-insensitively, and the owner's mailing address and parcel number (traceKeySql).
 */
export function addressKey(r: PropertyColumns): string {
  return [
    r.street_address.toLowerCase(),
    r.zip_code.slice(0, 5),
    r.city.toLowerCase(),
    r.state.toUpperCase(),
    (r.first_name ?? '').toLowerCase(),
    (r.last_name ?? '').toLowerCase(),
    r.mailing_address ? JSON.stringify(r.mailing_address) : '',
    r.apn ?? '',
  ].join('\u001f');
}

// $1 batch id (text, as batch_inputs.batch_id), $2 the same as bigint, $3..$4 the row range,
// $5 the reuse TTL in seconds (0: no reuse). Each pending row probes, for a result of the same
// account and key younger than the TTL, the synchronous results (core's reusable_traces, index properties_trace_key) and
// the batch results (batch_results_reuse), newest first, one row each (LATERAL … LIMIT 1:
// index probes whatever statistics the tables have); the newer of the two is picked in Node
// (a UNION ALL … ORDER BY … LIMIT 1 per row cost PostgreSQL an Append and a Sort per row). Which rows are pending is one probe per
// chunk, not one per row: a chunk's rows get results only in a transaction that also marks the
// chunk done (its own, a cancel's, a failure's), so a chunk not done has no result yet, and a
// done one has nothing left to trace (two deliveries at once: ON CONFLICT DO NOTHING on store).
export const LOAD_PENDING = prepared(`
SELECT p.row_number, p.street_address, p.city, p.state, p.zip_code, p.first_name, p.last_name, p.mailing_address, p.apn,
       q.status AS q_status, q.results AS q_results, q.error AS q_error, q.people_total AS q_people_total,
       q.owner_facts AS q_owner_facts, extract(epoch FROM q.completed_at)::float8 AS q_at,
       r.status AS r_status, r.results AS r_results, r.error AS r_error, r.people_total AS r_people_total,
       r.owner_facts AS r_owner_facts, extract(epoch FROM r.completed_at)::float8 AS r_at,
       r.csv_before AS r_csv_before, r.csv_after AS r_csv_after
  FROM batch_inputs p
  LEFT JOIN LATERAL (
    SELECT q.status, q.results, q.error, q.people_total, q.owner_facts, q.completed_at
      FROM reusable_traces q
     WHERE $5::double precision > 0 AND q.account_id = p.account_id
       AND lower(q.street_address) = lower(p.street_address) AND left(q.zip_code, 5) = left(p.zip_code, 5)
       AND q.completed_at > now() - make_interval(secs => $5::double precision)
       AND lower(q.city) = lower(p.city) AND upper(q.state) = upper(p.state)
       AND lower(coalesce(q.first_name, '')) = lower(coalesce(p.first_name, ''))
       AND lower(coalesce(q.last_name, '')) = lower(coalesce(p.last_name, ''))
       AND q.mailing_address IS NOT DISTINCT FROM p.mailing_address AND q.apn IS NOT DISTINCT FROM p.apn
     ORDER BY q.completed_at DESC LIMIT 1
  ) q ON true
  LEFT JOIN LATERAL (
    SELECT r.status, r.results, r.error, r.people_total, r.owner_facts, r.completed_at,
           r.csv_before, r.csv_after FROM batch_results r
     WHERE $5::double precision > 0 AND r.account_id = p.account_id AND r.trace_key = ${traceKeySql('p')}
       AND r.status IN ('completed', 'no_match')
       AND r.completed_at > now() - make_interval(secs => $5::double precision)
     ORDER BY r.completed_at DESC LIMIT 1
  ) r ON true
 WHERE p.batch_id = $1::text AND p.row_number BETWEEN $3 AND $4 AND p.status = 'pending'
   AND EXISTS (SELECT 1 FROM batch_chunks k WHERE k.batch_id = $2::bigint AND k.from_row = $3 AND k.state <> 'done')
 ORDER BY p.row_number`);

// $1 batch id (bigint), $2 the same as text, $3..$4 the chunk's row range, then the outcomes
// by row as arrays, zipped by position (ROWS FROM); the results as one text ($9) of the rows'
// JSON documents joined by the record separator (jsonDocumentsParam of @skiptrace/storage): a text[] of JSON documents
// cost Node an escaping pass over every document (pg's array literal), about 4 % of the chunk
// worker's CPU; one JSON array cost PostgreSQL two passes of its JSON lexer over it (the
// parameter's json_in, then json_array_elements), a tenth of its CPU in the trace stage with
// the owner model's 2.3 kB documents. Split, each is stored as the text it is (migration 112:
// a json column lexed every document again, to check what JSON.stringify guarantees).
// Only rows whose batch input still exists are stored (one erased meanwhile is not), each
// once; the chunk's counters grow by what was inserted, in the same statement, and so does the usage of the batch's account and client (@skiptrace/usage): $12 the phones
// of each row's result as Node counted them, -1 for a reused result passed through as text
// (counted here from the stored JSON); $13 the same for its mobile phones (the batch's phones found
// and mobile share are the sums of its chunks' counters). The owner facts ($11) are one such
// text too, an empty document for a row without them (NULL). $14 and $15: each row's CSV
// cells (export.ts resultCsv: before and after its `row` cell), split the same way
// (csvCellsParams), for the CSV export to splice.
export const STORE_OUTCOMES = prepared(`
WITH stored AS (
  INSERT INTO batch_results (batch_id, row_number, account_id, trace_key, status, reused, error, results, people_total,
                             owner_facts, csv_before, csv_after)
  SELECT $1::bigint, p.row_number, p.account_id, ${traceKeySql('p')}, u.status, u.reused, u.error, u.results,
         u.people_total, u.owner_facts, u.csv_before, u.csv_after
    FROM ROWS FROM (unnest($5::int[]), unnest($6::text[]), unnest($7::bool[]), unnest($8::text[]),
                    ${jsonDocumentsSql('$9')}, unnest($10::int[]), ${jsonDocumentsSql('$11')},
                    ${jsonDocumentsSql('$14')}, ${jsonDocumentsSql('$15')})
      AS u(row_number, status, reused, error, results, people_total, owner_facts, csv_before, csv_after)
    JOIN batch_inputs p ON p.batch_id = $2::text AND p.row_number = u.row_number AND p.row_number BETWEEN $3 AND $4
  ON CONFLICT DO NOTHING
  RETURNING row_number, status, reused, results
), phones AS (
  SELECT s.status, CASE WHEN k.phones >= 0 THEN k.phones
           ELSE (SELECT coalesce(sum(json_array_length(r.person -> 'phones')), 0)::int
                   FROM json_array_elements(s.results::json) AS r(person)) END AS phones,
         CASE WHEN k.mobile >= 0 THEN k.mobile
           ELSE (SELECT count(*)::int FROM json_array_elements(s.results::json) AS r(person),
                        json_array_elements(r.person -> 'phones') AS ph(phone)
                  WHERE ph.phone ->> 'type' = 'mobile') END AS mobile
    FROM stored s JOIN unnest($5::int[], $12::int[], $13::int[]) AS k(row_number, phones, mobile)
      ON k.row_number = s.row_number
), counts AS (
  SELECT count(*)::int AS n,
         count(*) FILTER (WHERE status = 'completed')::int AS matched,
         count(*) FILTER (WHERE status = 'no_match')::int AS no_match,
         count(*) FILTER (WHERE status = 'failed')::int AS failed,
         count(*) FILTER (WHERE reused)::int AS reused,
         (SELECT coalesce(sum(phones), 0) FROM phones)::int AS phones,
         (SELECT coalesce(sum(mobile), 0) FROM phones)::int AS mobile
    FROM stored
), counted AS (
  ${usageUpsertSql(`SELECT b.account_id, coalesce(b.client_id, ''), ${UTC_DAY_SQL}, 0, count(*),
           count(*) FILTER (WHERE p.phones > 0), count(*) FILTER (WHERE p.phones = 0 AND p.status <> 'failed'),
           coalesce(sum(p.phones), 0), 0
      FROM phones p JOIN batches b ON b.id = $1::bigint GROUP BY 1, 2 HAVING count(*) > 0`)}
)
UPDATE batch_chunks k
   SET processed = k.processed + c.n, matched = k.matched + c.matched, no_match = k.no_match + c.no_match,
       failed = k.failed + c.failed, reused = k.reused + c.reused, phones = k.phones + c.phones,
       mobile = k.mobile + c.mobile, stored_at = now()
  FROM counts c
 WHERE k.batch_id = $1::bigint AND k.from_row = $3
RETURNING c.matched, c.no_match, c.failed`);

/** The chunk's outcomes by row, as the arrays STORE_OUTCOMES unnests. */
interface Outcomes {
  rowNumbers: number[];
  statuses: Status[];
  reused: boolean[];
  errors: (string | null)[];
  results: string[];
  /** TraceOutcome.matched (stored as people_total): only when `results` is not everyone who matched. */
  peopleTotals: (number | null)[];
  /** JSON text of the outcome's OwnerFacts, or null. */
  ownerFacts: (string | null)[];
  /** Phones in the row's result; -1 when it is reused text (counted in SQL). */
  phones: number[];
  /** Of them, mobile (type 'mobile'); -1 as phones. */
  mobile: number[];
  /** The row's CSV cells (resultCsv). */
  csv: ResultCsv[];
}

interface KeyOutcome {
  status: Status;
  error: string | null;
  /** JSON text of the results. */
  results: string;
  peopleTotal: number | null;
  /** JSON text of the outcome's OwnerFacts, or null. */
  ownerFacts: string | null;
  /** Its CSV cells, rendered once per key: from the outcome traced, or the stored result's (stored, else parsed). */
  csv: ResultCsv;
  reused: boolean;
  /** Phones in the results; -1 for a reused result (its text is not parsed here). */
  phones: number;
  /** Of them, mobile; -1 as phones. */
  mobile: number;
}

/** Mobile numbers among the results' phones. */
export function mobileIn(results: readonly { phones?: readonly { type?: string }[] }[]): number {
  let n = 0;
  for (const person of results) for (const phone of person.phones ?? []) if (phone.type === 'mobile') n++;
  return n;
}

/** STORE_OUTCOMES's parameters from $5 on. */
function storeParams(o: Outcomes): unknown[] {
  return [
    o.rowNumbers,
    o.statuses,
    o.reused,
    o.errors,
    jsonDocumentsParam(o.results),
    o.peopleTotals,
    jsonDocumentsParam(o.ownerFacts),
    o.phones,
    o.mobile,
    ...csvCellsParams(o.csv),
  ];
}

export function createBatchChunkHandler(deps: BatchChunkHandlerDeps) {
  const { db, bus, engine, logger } = deps;
  const maxAttempts = deps.config?.maxAttempts ?? 5;
  const reuseTtlSeconds = deps.config?.reuseTtlSeconds ?? 86_400;
  const log = logger.child({ scope: 'batch-chunk' });

  /** One outcome per row: reused from a stored result, or traced now once per distinct key. */
  async function outcomesOf(rows: PendingRow[], attempt: number): Promise<Outcomes> {
    const byKey = new Map<string, KeyOutcome | undefined>();
    const rowKeys: string[] = [];
    const toTrace: { key: string; row: PendingRow }[] = [];
    for (const row of rows) {
      const key = addressKey(row);
      rowKeys.push(key);
      if (byKey.has(key)) continue;
      const stored = reusable(row);
      if (stored) byKey.set(key, stored);
      else {
        byKey.set(key, undefined);
        toTrace.push({ key, row });
      }
    }
    let failed: string | undefined;
    if (toTrace.length > 0) {
      try {
        const traced = await engine.traceMany(toTrace.map((t) => propertyOf(t.row)));
        if (traced.length !== toTrace.length) {
          throw new Error(`traceMany returned ${traced.length} outcomes for ${toTrace.length} properties`);
        }
        toTrace.forEach((t, i) => {
          const o = traced[i]!;
          const facts = ownerFactsOf(o);
          const outcome: CsvOutcome = {
            status: o.status,
            error: o.error ?? null,
            results: o.results,
            people_total: o.matched ?? null,
            owner_facts: facts,
          };
          byKey.set(t.key, {
            status: o.status,
            error: outcome.error,
            results: JSON.stringify(o.results),
            peopleTotal: outcome.people_total,
            ownerFacts: facts === null ? null : JSON.stringify(facts),
            csv: resultCsv(outcome),
            reused: false,
            phones: phonesIn(o.results),
            mobile: mobileIn(o.results),
          });
        });
      } catch (err) {
        if (attempt < maxAttempts) throw err;
        log.error({ err, attempt }, 'chunk trace failed on its last attempt; rows marked failed');
        failed = 'skip trace failed after repeated errors';
      }
    }
    const out: Outcomes = {
      rowNumbers: [],
      statuses: [],
      reused: [],
      errors: [],
      results: [],
      peopleTotals: [],
      ownerFacts: [],
      phones: [],
      mobile: [],
      csv: [],
    };
    const seen = new Set<string>();
    const notTraced = failed ?? 'not traced';
    let notTracedCsv: ResultCsv | undefined;
    rows.forEach((row, i) => {
      const key = rowKeys[i]!;
      const o = byKey.get(key);
      out.rowNumbers.push(row.row_number);
      if (!o) {
        out.statuses.push('failed');
        out.reused.push(false);
        out.errors.push(notTraced);
        out.results.push('[]');
        out.peopleTotals.push(null);
        out.ownerFacts.push(null);
        out.phones.push(0);
        out.mobile.push(0);
        notTracedCsv ??= failedResultCsv(notTraced);
        out.csv.push(notTracedCsv);
        return;
      }
      // Later rows with the key of an earlier row in this chunk reuse its trace.
      const first = !seen.has(key);
      seen.add(key);
      out.statuses.push(o.status);
      out.reused.push(o.reused || !first);
      out.errors.push(o.error);
      out.results.push(o.results);
      out.peopleTotals.push(o.peopleTotal);
      out.ownerFacts.push(o.ownerFacts);
      out.phones.push(o.phones);
      out.mobile.push(o.mobile);
      out.csv.push(o.csv);
    });
    return out;
  }

  return async function handleBatchChunk(delivery: BusDelivery<typeof CHUNK_QUEUE>): Promise<void> {
    const job = delivery.payload;
    const { rows: batches } = await db.query<{ status: string; account_id: string; started: boolean; fresh: boolean }>(
      `SELECT status, account_id, started_at IS NOT NULL AS started, fresh FROM batches WHERE id = $1`,
      [job.batchId],
    );
    const batch = batches[0];
    // Purged, cancelled, finished or foreign: nothing to do (ack). A batch still being
    // received is traced too (its first pages are stored: openStoredChunks).
    if (!batch || batch.account_id !== job.accountId || !TRACED_STATES.includes(batch.status)) return;
    if (batch.status === 'queued') {
      await db.query(
        `UPDATE batches SET status = 'running', started_at = coalesce(started_at, now()) WHERE id = $1 AND status = 'queued'`,
        [job.batchId],
      );
    } else if (!batch.started) {
      await db.query(`UPDATE batches SET started_at = now() WHERE id = $1 AND started_at IS NULL`, [job.batchId]);
    }
    const { rows } = await db.query<PendingRow>(LOAD_PENDING, [
      job.batchId,
      job.batchId,
      job.fromRow,
      job.toRow,
      // A fresh batch (?fresh=true, a re-run) traces every row: no stored result is reused.
      batch.fresh ? 0 : reuseTtlSeconds,
    ]);
    // The outcomes as STORE_OUTCOMES's parameters from here on, before the transaction's round
    // trips: each row's results, facts and cells become garbage at once, not after surviving
    // (and being copied by) the young-generation collections of the other chunks in flight.
    const stored = rows.length > 0 ? storeParams(await outcomesOf(rows, delivery.attempt)) : undefined;
    const { next, counts } = await db.transaction(async (tx) => {
      // A cancel, fail or purge that got here first has settled the rows: store nothing.
      const status = await lockBatch(tx, job.batchId, 'share');
      if (status === undefined || !TRACED_STATES.includes(status)) return { next: [], counts: undefined };
      const { rowCount } = await tx.query(
        `UPDATE batch_chunks SET state = 'done' WHERE batch_id = $1 AND from_row = $2 AND state <> 'done'`,
        [job.batchId, job.fromRow],
      );
      // Only the delivery that finished the chunk hands the window on, so redeliveries add no jobs.
      const claimed = rowCount > 0 ? await claimChunks(tx, job.batchId, 1) : [];
      if (!stored) return { next: claimed, counts: undefined };
      const { rows: counted } = await tx.query<Record<'matched' | 'no_match' | 'failed', number>>(STORE_OUTCOMES, [
        job.batchId,
        job.batchId,
        job.fromRow,
        job.toRow,
        ...stored,
      ]);
      return { next: claimed, counts: counted[0] };
    });
    // Counted after the commit, from the rows this delivery stored (a redelivery adds none).
    recordBatchRows('completed', counts?.matched ?? 0);
    recordBatchRows('no_match', counts?.no_match ?? 0);
    recordBatchRows('failed', counts?.failed ?? 0);
    if (next.length > 0) await publishChunks(bus, job.accountId, job.batchId, next);
    // With no chunk left to hand on, the batch may be finished: checked after the commit, so
    // of chunks storing at once, the last to commit sees every count (a delivery that stored
    // nothing, a redelivery after a crash say, checks too, in case the completion was interrupted).
    if (next.length === 0) await completeIfDone(db, bus, job.batchId);
  };
}

export interface BatchWorkerDeps {
  db: Database;
  bus: MessageBus;
  engine: TraceEngine;
  logger: Logger;
  config?: Partial<BatchWorkerConfig>;
}

export interface BatchWorker {
  /** Runs one sweep now (also run every sweepIntervalMs). */
  sweep(): ReturnType<typeof sweepBatches>;
  /** Stops the sweep and the consumer, waiting for in-flight chunks. Idempotent. */
  stop(): Promise<void>;
}

/** Consumes chunk jobs and runs the batch sweep periodically. Built and started; stop() to end. */
export async function startBatchWorker(deps: BatchWorkerDeps): Promise<BatchWorker> {
  const config = BatchWorkerConfig.parse(deps.config ?? {});
  const handler = createBatchChunkHandler({ ...deps, config });
  const consumer: Consumer = await deps.bus.consume(
    CHUNK_QUEUE,
    { prefetch: config.prefetch, maxAttempts: config.maxAttempts },
    handler,
  );
  const sweep = () => sweepBatches(deps.db, deps.bus, config, deps.logger.child({ scope: 'batch-sweep' }));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  if (config.sweepIntervalMs > 0) {
    timer = setInterval(() => {
      running ??= sweep()
        .catch((err: unknown) => deps.logger.warn({ err }, 'batch sweep failed'))
        .finally(() => (running = undefined));
    }, config.sweepIntervalMs);
    timer.unref();
  }
  let stopped: Promise<void> | undefined;
  return {
    sweep,
    stop() {
      stopped ??= (async () => {
        clearInterval(timer);
        await running;
        await consumer.cancel();
      })();
      return stopped;
    },
  };
}
