/**
 * The ordered export: walks a batch by row number in pages (row ranges, never OFFSET), merging
 * traced rows and rejected rows, and writes each page with back-pressure. Works while the
 * batch runs: rows not yet traced appear with status `pending`.
 */
import type { Writable } from 'node:stream';
import type { TraceResult } from '@skiptrace/contracts';
import { propertyOf, type OwnerFacts, type PropertyColumns } from '@skiptrace/core';
import { csvCell, csvPhoneCell, eventLoopSlices } from '@skiptrace/runtime';
import { SLICE_MS } from './config.ts';
import { addressLine, ownerNames } from './owner-text.ts';
import type { Database } from '@skiptrace/storage';

export const PHONE_COLUMNS = 5;

/** A row's outcome as the CSV and XLSX exports print it (a rejected row's too: status `rejected`, its reason as error). */
export interface CsvOutcome {
  status: string;
  error: string | null;
  results: readonly TraceResult[];
  /** How many people matched when `results` is not all of them (truncated), else null. */
  people_total: number | null;
  /** The owners of record and the mailing address the trace used, when it had any. */
  owner_facts: OwnerFacts | null;
}

/** What the CSV export renders of a traced row. */
interface CsvTracedRow extends CsvOutcome {
  row_number: number;
  input: unknown[] | null;
}

/**
 * What the XLSX export reads of a traced row, and the CSV export of a row without stored CSV
 * cells: the results and input as JSON text, parsed a row at a time while rendering. Parsed by
 * the driver, a 5,000-row page (and the one read
 * ahead) was some 45 objects a row that lived through young-generation collections, each
 * copying them all again: scavenges of 8–14 ms (with --max-semi-space-size=16) in the middle
 * of the export, the event loop's longest holds (`bench/export.bench.ts`: event-loop delay
 * p99 14–16 ms, now 4–6; 20 % less CPU a row).
 */
type CsvTracedText = Omit<CsvTracedRow, 'results' | 'input' | 'owner_facts'> & {
  results: string;
  input: string | null;
  owner_facts: string | null;
};

/**
 * What the CSV export reads of a traced row: its outcome's cells as stored
 * (batch_results.csv_before/csv_after, migration 077: rendered by resultCsv when the row was
 * stored), then the results and owner facts are not read (null); a row stored without them
 * (before migration 077; not traced yet) has them null and its results and owner facts as text.
 */
type CsvStoredText = Omit<CsvTracedText, 'results'> & {
  results: string | null;
  csv_before: string | null;
  csv_after: string | null;
};

/** What the NDJSON export reads of a traced row. */
type NdjsonTracedRow = PropertyColumns & {
  row_number: number;
  id: string;
  status: string;
  error: string | null;
  /** JSON text. */
  results: string;
  people_total: number | null;
  /** JSON text of OwnerFacts, or null. */
  owner_facts: string | null;
  /** Milliseconds since the epoch (truncated, as the driver's Date has them): numbers, not Date objects, in a page. */
  created_at: number;
  completed_at: number | null;
};

interface RejectRow {
  row_number: number;
  reason: string;
  raw: unknown;
}

export type ExportRow<T> = { kind: 'traced'; row: T } | { kind: 'rejected'; row: RejectRow };

// Each format reads only its columns: parsing timestamps nobody prints was a tenth of the
// CSV export's CPU time at 1 M rows. A row's outcome is its batch_results row, or (rows traced
// before that table existed) the outcome columns of its batch input; both bounded by the
// page's row range, so either join order reads only the page. NDJSON takes the results as
// JSON text and splices it into the line (no parse and stringify of every row's results), and
// so the owner facts (owners of record, mailing address used), from the same row as the results.
// The outcome is probed row by row (LATERAL … LIMIT 1 on batch_results' primary key), not
// joined: a new batch's rows are a small part of tables that hold every batch, so they are
// often not in the statistics yet (analyzeAfterLoad waits for a tenth of the table to change),
// the planner then expects one row on each side, and a join of the two row ranges became a
// nested loop comparing every row of the page with every other: 2,000 × 1,000 comparisons a
// page, 360 ms instead of 2, an export of 200,000 rows 86 s instead of 4 (the 12th batch of a
// kept bench world).
const OUTCOME_JOIN = `FROM batch_inputs p LEFT JOIN LATERAL (
  SELECT * FROM batch_results r WHERE r.batch_id = $4::bigint AND r.row_number = p.row_number LIMIT 1) r ON true`;
const OUTCOME_SCALARS = `coalesce(r.status, p.status) AS status,
  CASE WHEN r.status IS NULL THEN p.error ELSE r.error END AS error,
  CASE WHEN r.status IS NULL THEN p.people_total ELSE r.people_total END AS people_total`;
const OWNER_FACTS = `CASE WHEN r.status IS NULL THEN p.owner_facts ELSE r.owner_facts END`;
const OUTCOME_COLUMNS = `${OUTCOME_SCALARS}, ${OWNER_FACTS} AS owner_facts`;
/** The row's outcome has its CSV cells stored (migration 077). */
const CSV_STORED = `r.csv_before IS NOT NULL AND r.csv_after IS NOT NULL`;
const epochMs = (ts: string) => `floor(extract(epoch FROM ${ts}) * 1000)::float8`;
export const TRACED_COLUMNS = {
  // A row with its outcome's CSV cells stored reads neither its results nor its owner facts.
  csv: `p.row_number, ${OUTCOME_SCALARS}, p.input::text AS input, r.csv_before, r.csv_after,
        CASE WHEN ${CSV_STORED} THEN NULL ELSE coalesce(r.results, p.results) END AS results,
        CASE WHEN ${CSV_STORED} THEN NULL ELSE ${OWNER_FACTS} END AS owner_facts`,
  xlsx: `p.row_number, ${OUTCOME_COLUMNS}, coalesce(r.results, p.results) AS results, p.input::text AS input`,
  ndjson: `p.row_number, p.id, ${OUTCOME_COLUMNS},
           coalesce(r.results, p.results) AS results, p.street_address, p.city, p.state, p.zip_code,
           p.first_name, p.last_name, p.mailing_address, p.apn, ${epochMs('p.created_at')} AS created_at,
           ${epochMs('coalesce(r.completed_at, p.completed_at)')} AS completed_at`,
} as const;

/** A page of a batch's rows with their outcomes: $1 batch id (text), $2..$3 row range, $4 batch id (bigint). */
export const exportPageSql = (columns: string): string =>
  `SELECT ${columns} ${OUTCOME_JOIN} WHERE p.batch_id = $1 AND p.row_number BETWEEN $2 AND $3`;

async function readPage<T extends { row_number: number }>(
  db: Database,
  batchId: string,
  columns: string,
  from: number,
  to: number,
): Promise<ExportRow<T>[]> {
  const [traced, rejected] = await Promise.all([
    db.query<T>(exportPageSql(columns), [batchId, from, to, batchId]),
    db.query<RejectRow>(
      `SELECT row_number, reason, raw FROM batch_rejects WHERE batch_id = $1 AND row_number BETWEEN $2 AND $3`,
      [batchId, from, to],
    ),
  ]);
  const slots: (ExportRow<T> | undefined)[] = new Array(to - from + 1);
  for (const row of traced.rows) slots[row.row_number - from] = { kind: 'traced', row };
  for (const row of rejected.rows) slots[row.row_number - from] = { kind: 'rejected', row };
  // A row erased on its own (DELETE /plants/{id}) leaves its slot empty: it is not exported.
  return slots.filter((entry) => entry !== undefined);
}

/**
 * The batch's rows in input order as CSV lines or NDJSON lines, a page of `pageRows`
 * row numbers at a time.
 *
 * Each page is a closed row-number range, not `row_number > cursor ORDER BY … LIMIT n`:
 * row numbers are dense (every input row is either a batch input or a reject), so a
 * range bounds what PostgreSQL reads whatever plan it picks. With LIMIT, a batch the
 * planner has no statistics for (any fresh batch) was estimated at a few thousand rows,
 * so it read *every* row after the cursor in a bitmap scan and sorted them all to keep
 * 5,000: quadratic, 1.8 s for the first page of a 1 M-row batch. A range needs no ORDER BY
 * either: rows are slotted by row number here. The next page is read while this one is
 * rendered and written.
 */
export async function* exportText(
  db: Database,
  batch: { id: string; total: number; width: number },
  format: 'csv' | 'ndjson',
  pageRows: number,
): AsyncGenerator<string> {
  const lines =
    format === 'csv'
      ? renderPages<CsvStoredText, string>(db, batch, TRACED_COLUMNS.csv, pageRows, (entry) =>
          entry.kind === 'traced' ? storedCsvLine(entry.row, batch.width) : csvLine(entry, batch.width),
        )
      : renderPages<NdjsonTracedRow, string>(db, batch, TRACED_COLUMNS.ndjson, pageRows, ndjsonLine);
  for await (const slice of lines) yield slice.join('');
}

/** The batch's rows in input order as XLSX rows (cells, see xlsxCells), a page at a time. */
export function exportXlsxRows(
  db: Database,
  batch: { id: string; total: number; width: number },
  pageRows: number,
): AsyncGenerator<ReturnType<typeof xlsxCells>[]> {
  return renderPages<CsvTracedText, ReturnType<typeof xlsxCells>>(db, batch, TRACED_COLUMNS.xlsx, pageRows, (entry) =>
    xlsxCells(entry.kind === 'traced' ? { kind: 'traced', row: parsedRow(entry.row) } : entry, batch.width),
  );
}

const parsedRow = (row: CsvTracedText): CsvTracedRow => ({
  row_number: row.row_number,
  status: row.status,
  error: row.error,
  people_total: row.people_total,
  results: JSON.parse(row.results) as TraceResult[],
  input: parsedInput(row.input),
  owner_facts: row.owner_facts === null ? null : (JSON.parse(row.owner_facts) as OwnerFacts),
});

const parsedInput = (input: string | null): unknown[] | null =>
  input === null ? null : (JSON.parse(input) as unknown[]);

/**
 * A traced row's CSV line: its outcome's cells as stored (csv_before, csv_after) spliced
 * around its row number, or, when it has none stored, rendered from its results (resultCsv,
 * as the writer would have).
 */
function storedCsvLine(row: CsvStoredText, width: number): string {
  if (row.csv_before !== null && row.csv_after !== null) {
    return csvLineOf(parsedInput(row.input), width, row.row_number, { before: row.csv_before, after: row.csv_after });
  }
  return csvLine({ kind: 'traced', row: parsedRow({ ...row, results: row.results ?? '[]' }) }, width);
}

/** Renders a batch's pages, gathered per slice of the event loop (SLICE_MS). */
async function* renderPages<T extends { row_number: number }, R>(
  db: Database,
  batch: { id: string; total: number },
  columns: string,
  pageRows: number,
  render: (entry: ExportRow<T>) => R,
): AsyncGenerator<R[]> {
  const read = (from: number) =>
    from > batch.total
      ? undefined
      : readPage<T>(db, batch.id, columns, from, Math.min(from + pageRows - 1, batch.total));
  const slices = eventLoopSlices(SLICE_MS);
  let next = read(1);
  for (let from = 1; next; from += pageRows) {
    const page = await next;
    next = read(from + pageRows);
    // If the consumer stops (client gone), the page read ahead must not reject unobserved.
    next?.catch(() => undefined);
    let out: R[] = [];
    for (const entry of page) {
      out.push(render(entry));
      if (slices.due()) {
        yield out;
        out = [];
        // A turn of the event loop after every SLICE_MS of rendering: in the one-process
        // system a synchronous request crosses the event loop a few dozen times (HTTP, rate
        // limit, publish, consume, queries, reply) and waits up to a slice at each crossing.
        // A turn every 500 rows (about 1 ms now) gave sync p50 62 ms during a
        // 1,000,000-row export; 0.5 ms slices 21 ms, 2 ms slices 157 ms.
        await slices.yieldTurn();
      }
    }
    if (out.length > 0) yield out;
  }
}

/**
 * Fields of one phone group: the phone, then the person it belongs to — their name, emails,
 * whether they are an owner of record and whether they live at the property, their current
 * address, and `true` when the people data says they died (an estate's decedent, a trust's
 * settlor: their number reaches the heirs at best).
 */
const PHONE_GROUP = [
  '',
  '_type',
  '_dnc',
  '_litigator',
  '_first_name',
  '_last_name',
  '_emails',
  '_owner',
  '_resident',
  '_current_address',
  '_deceased',
] as const;
/** The property's columns: its owners of record and the owner's mailing address the trace used. */
const PROPERTY_COLUMNS = ['owners_of_record', 'mailing_address_used'] as const;
/** Prefix added (again, while needed) to every export column when one would repeat an input column. */
export const COLLISION_PREFIX = 'result_';

/**
 * The export's own columns: PHONE_COLUMNS phone groups (number, type, DNC, litigator and the
 * matched person's first name, last name, emails, owner, resident, current address and deceased), the
 * owners of record and the mailing address used, then row (the input row number: 1 is the
 * first row after the header, as reject reasons count), confidence, status, error, truncated
 * and people_total (as in the API: more people matched than were returned).
 * If any of them equals an input column (case-insensitively), all of them get the
 * `result_` prefix — repeated until none does — so the header never names a column twice
 * and the export's columns stay recognisable by one shared prefix.
 */
export function exportColumns(inputColumns: readonly string[]): string[] {
  const own: string[] = [];
  for (let i = 1; i <= PHONE_COLUMNS; i++) for (const field of PHONE_GROUP) own.push(`phone_${i}${field}`);
  own.push(...PROPERTY_COLUMNS, 'row', 'confidence', 'status', 'error', 'truncated', 'people_total');
  const taken = new Set(inputColumns.map((c) => c.trim().toLowerCase()));
  let prefix = '';
  while (own.some((c) => taken.has(`${prefix}${c}`.toLowerCase()))) prefix += COLLISION_PREFIX;
  return own.map((c) => `${prefix}${c}`);
}

export function csvHeader(columns: readonly string[]): string {
  return `${[...columns, ...exportColumns(columns)].map(csvCell).join(',')}\n`;
}

/**
 * Input columns as uploaded, then the phones of the matches (best person first, each
 * person's phones in order), each beside its person's name, emails, owner and resident flags
 * (`true`/`false`; blank when the result does not say), current address and deceased flag
 * (`true`, or blank); the owners of
 * record (names joined with `; `) and the mailing address used; the row; confidence, status,
 * error, truncated, people_total.
 * Every cell goes through the neutralising encoder (`csvCell`: text a spreadsheet would run
 * as a formula is quoted), the system's E.164 phone numbers through `csvPhoneCell`.
 */
export function csvLine(entry: ExportRow<CsvTracedRow>, width: number): string {
  return csvLineOf(
    entry.kind === 'traced' ? entry.row.input : entry.row.raw,
    width,
    entry.row.row_number,
    resultCsv(outcomeOf(entry)),
  );
}

/** A row's outcome as CSV text on either side of its `row` cell: what batch_results.csv_before and csv_after store. */
export interface ResultCsv {
  /** The phone groups, the owners of record and the mailing address used, joined with commas. */
  before: string;
  /** Confidence, status, error, truncated and people_total, joined with commas. */
  after: string;
}

/**
 * The outcome's CSV cells (csvLine), rendered once: by the writer of a batch_results row
 * (the chunk handler, a cancel, a fail), which stores them, and by the export for a row
 * stored without them.
 */
export function resultCsv(outcome: CsvOutcome): ResultCsv {
  const { before, after } = outcomeCells(outcome, csvCell, csvPhoneCell);
  return { before: before.join(','), after: after.join(',') };
}

/** The CSV cells of a row stored as `failed` without results (a trace that never ran, a cancel, a failed batch). */
export const failedResultCsv = (reason: string): ResultCsv =>
  resultCsv({ status: 'failed', error: reason, results: [], people_total: null, owner_facts: null });

/** A CSV line of the input's cells, then the outcome's (as resultCsv renders them) around the row number. */
function csvLineOf(input: unknown, width: number, rowNumber: number, outcome: ResultCsv): string {
  const cells = inputCells(input, width, csvCell);
  cells.push(outcome.before, csvCell(rowNumber), outcome.after);
  return `${cells.join(',')}\n`;
}

/** A cell as the XLSX export writes it: text, numbers and booleans as they are, empty as nothing. */
const xlsxCell = (value: unknown): string | number | boolean | null =>
  value === null || value === undefined || value === ''
    ? null
    : typeof value === 'number' || typeof value === 'boolean'
      ? value
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);

/** One export row's cells for the XLSX writer (the CSV export's cells, not text-encoded: a workbook cell is never a formula). */
export const xlsxCells = (entry: ExportRow<CsvTracedRow>, width: number) => {
  const { before, after } = outcomeCells(outcomeOf(entry), xlsxCell, xlsxCell);
  const cells = inputCells(entry.kind === 'traced' ? entry.row.input : entry.row.raw, width, xlsxCell);
  cells.push(...before, xlsxCell(entry.row.row_number), ...after);
  return cells;
};

/** What an export row prints as its outcome: a traced row's own, a rejected row's reason. */
const outcomeOf = (entry: ExportRow<CsvTracedRow>): CsvOutcome =>
  entry.kind === 'traced'
    ? entry.row
    : { status: 'rejected', error: entry.row.reason, results: [], people_total: null, owner_facts: null };

/** The input row's `width` cells, each through `cell`; an unparseable line (kept as text) in the first. */
function inputCells<C>(input: unknown, width: number, cell: (value: unknown) => C): C[] {
  const cells: C[] = [];
  if (Array.isArray(input)) for (let i = 0; i < width; i++) cells.push(cell(input[i]));
  else {
    const empty = cell('');
    cells.push(cell(input));
    for (let i = 1; i < width; i++) cells.push(empty);
  }
  return cells;
}

/**
 * The cells of an outcome (see csvLine), each through `cell` (the system's phone numbers
 * through `phone`): those before the `row` cell and those after it. The one composition of
 * a row's result cells: the CSV export's (stored or rendered, resultCsv) and the XLSX export's.
 */
function outcomeCells<C>(
  outcome: CsvOutcome,
  cell: (value: unknown) => C,
  phone: (number: string) => C,
): { before: C[]; after: C[] } {
  const empty = cell('');
  const before: C[] = [];
  let group = 0;
  people: for (const person of outcome.results) {
    if (person.phones.length === 0) continue;
    const who = [
      cell(person.first_name),
      cell(person.last_name),
      cell(person.emails.join('; ')),
      cell(person.owner),
      cell(person.resident),
      cell(person.current_address && addressLine(person.current_address)),
      cell(person.deceased),
    ];
    for (const p of person.phones) {
      if (group === PHONE_COLUMNS) break people;
      before.push(phone(p.number), cell(p.type), cell(p.dnc), cell(p.litigator), ...who);
      group++;
    }
  }
  for (; group < PHONE_COLUMNS; group++) for (let f = 0; f < PHONE_GROUP.length; f++) before.push(empty);
  const facts = outcome.owner_facts;
  before.push(
    cell(facts?.owners_of_record && ownerNames(facts.owners_of_record)),
    cell(facts?.mailing_address && addressLine(facts.mailing_address)),
  );
  const total = outcome.people_total;
  const after = [cell(outcome.results[0]?.confidence), cell(outcome.status), cell(outcome.error)];
  // Not traced yet, or rejected: neither truncated nor people_total.
  if (outcome.status === 'pending' || outcome.status === 'rejected') after.push(empty, empty);
  else after.push(cell(total !== null), cell(total));
  return { before, after };
}

/** One PropertyResponse per traced row plus its `row`; rejected rows as {row, status: 'rejected', error, input}. */
export function ndjsonLine(entry: ExportRow<NdjsonTracedRow>): string {
  if (entry.kind === 'rejected') {
    const r = entry.row;
    return `${JSON.stringify({ row: r.row_number, status: 'rejected', error: r.reason, input: r.raw })}\n`;
  }
  const r = entry.row;
  const head: Record<string, unknown> = { row: r.row_number, id: Number(r.id), status: r.status };
  if (r.error) head.error = r.error;
  const tail: Record<string, unknown> = { truncated: r.people_total !== null };
  if (r.people_total !== null) tail.people_total = r.people_total;
  tail.property = propertyOf(r);
  tail.created_at = new Date(r.created_at).toISOString();
  if (r.completed_at !== null) tail.completed_at = new Date(r.completed_at).toISOString();
  // {row, id, status, error?, results, truncated, people_total?, property, created_at, completed_at?,
  // owners_of_record?, mailing_address?}: the results and the owner facts spliced in as stored.
  const facts = r.owner_facts === null ? '' : r.owner_facts.slice(1, -1).trim();
  return `${JSON.stringify(head).slice(0, -1)},"results":${r.results},${JSON.stringify(tail).slice(1, -1)}${
    facts ? `,${facts}` : ''
  }}\n`;
}

export class ClientGoneError extends Error {
  override name = 'ClientGoneError';
}

/** Writes text, waiting for 'drain' when the socket buffer is full; throws when the client left. */
export async function writeWithBackpressure(out: Writable, text: string): Promise<void> {
  if (out.destroyed) throw new ClientGoneError('client disconnected');
  if (out.write(text)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
  if (out.destroyed) throw new ClientGoneError('client disconnected');
}
