/**
 * The ordered export: walks a batch by row number in pages (keyset, never OFFSET), merging
 * traced rows and rejected rows, and writes each page with back-pressure. Works while the
 * batch runs: rows not yet traced appear with status `pending`.
 */
import type { Writable } from 'node:stream';
import type { TraceResult } from '@skiptrace/contracts';
import type { Database } from '@skiptrace/storage';

export const PHONE_COLUMNS = 5;

interface TracedRow {
  row_number: number;
  id: string;
  status: string;
  error: string | null;
  results: TraceResult[];
  input: unknown[] | null;
  street_address: string;
  city: string;
  state: string;
  zip_code: string;
  first_name: string | null;
  last_name: string | null;
  created_at: Date;
  completed_at: Date | null;
}

interface RejectRow {
  row_number: number;
  reason: string;
  raw: unknown;
}

type ExportRow = { kind: 'traced'; row: TracedRow } | { kind: 'rejected'; row: RejectRow };

/** Yields the batch's rows in input order, a page at a time. */
export async function* exportPages(db: Database, batchId: string, pageRows: number): AsyncGenerator<ExportRow[]> {
  let after = 0;
  for (;;) {
    const [traced, rejected] = await Promise.all([
      db.query<TracedRow>(
        `SELECT row_number, id, status, error, results, input, street_address, city, state, zip_code,
                first_name, last_name, created_at, completed_at
           FROM properties WHERE batch_id = $1 AND row_number > $2 ORDER BY row_number LIMIT $3`,
        [batchId, after, pageRows],
      ),
      db.query<RejectRow>(
        `SELECT row_number, reason, raw FROM batch_rejects
          WHERE batch_id = $1 AND row_number > $2 ORDER BY row_number LIMIT $3`,
        [batchId, after, pageRows],
      ),
    ]);
    const page: ExportRow[] = [];
    let t = 0;
    let r = 0;
    while (page.length < pageRows && (t < traced.rows.length || r < rejected.rows.length)) {
      const a = traced.rows[t];
      const b = rejected.rows[r];
      if (a && (!b || a.row_number < b.row_number)) {
        page.push({ kind: 'traced', row: a });
        t++;
      } else {
        page.push({ kind: 'rejected', row: b! });
        r++;
      }
    }
    if (page.length === 0) return;
    yield page;
    const last = page[page.length - 1]!;
    after = last.row.row_number;
    // A short page means both sources ran out under the cursor.
    if (page.length < pageRows) return;
  }
}

const NEEDS_QUOTES = /[",\r\n]/;
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(columns: readonly string[]): string {
  const phones: string[] = [];
  for (let i = 1; i <= PHONE_COLUMNS; i++)
    phones.push(`phone_${i}`, `phone_${i}_type`, `phone_${i}_dnc`, `phone_${i}_litigator`);
  return `${[...columns, ...phones, 'confidence', 'status', 'error'].map(csvCell).join(',')}\n`;
}

/** Input columns as uploaded, then the phones of the matches (best first), confidence, status, error. */
export function csvLine(entry: ExportRow, width: number): string {
  const cells: unknown[] = [];
  const input = entry.kind === 'traced' ? entry.row.input : entry.row.raw;
  if (Array.isArray(input)) for (let i = 0; i < width; i++) cells.push(input[i]);
  else {
    // An unparseable line (kept as text) goes into the first column.
    cells.push(input);
    for (let i = 1; i < width; i++) cells.push('');
  }
  const results = entry.kind === 'traced' ? entry.row.results : [];
  const phones = results.flatMap((r) => r.phones).slice(0, PHONE_COLUMNS);
  for (let i = 0; i < PHONE_COLUMNS; i++) {
    const p = phones[i];
    cells.push(p?.number, p?.type, p?.dnc, p?.litigator);
  }
  if (entry.kind === 'traced') cells.push(results[0]?.confidence, entry.row.status, entry.row.error);
  else cells.push(undefined, 'rejected', entry.row.reason);
  return `${cells.map(csvCell).join(',')}\n`;
}

/** One PropertyResponse per traced row plus its `row`; rejected rows as {row, status: 'rejected', error, input}. */
export function ndjsonLine(entry: ExportRow): string {
  if (entry.kind === 'rejected') {
    const r = entry.row;
    return `${JSON.stringify({ row: r.row_number, status: 'rejected', error: r.reason, input: r.raw })}\n`;
  }
  const r = entry.row;
  const property: Record<string, string> = {
    street_address: r.street_address,
    city: r.city,
    state: r.state,
    zip_code: r.zip_code,
  };
  if (r.first_name) property.first_name = r.first_name;
  if (r.last_name) property.last_name = r.last_name;
  const out: Record<string, unknown> = { row: r.row_number, id: Number(r.id), status: r.status };
  if (r.error) out.error = r.error;
  out.results = r.results;
  out.property = property;
  out.created_at = r.created_at.toISOString();
  if (r.completed_at) out.completed_at = r.completed_at.toISOString();
  return `${JSON.stringify(out)}\n`;
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
