/**
 * History search (GET /property/skiptrace with filters): the account's rows newest first
 * (with a batch filter, that batch's rows last first), narrowed by address, name, phone,
 * status and creation date. The work is bounded: one keyset scan over an index
 * (properties_account_id_desc, or properties_batch_row for a batch) examines at most
 * `scanRows` rows, the filters are evaluated on those in SQL (a batch row's status and
 * results through the BatchRows port, one primary-key probe each), and the address words
 * are compared in USPS form in Node. A page is the first `limit` hits; when the scan ran out
 * of budget first, the cursor names the last row examined and the next page goes on from it.
 */
import { HISTORY_SCAN_ROWS, historyRange, phoneFilterOf, type HistoryQuery } from '@skiptrace/contracts';
import { DIRECTIONAL_BY_FORM, foldAscii, standardizeAddress, SUFFIX_BY_FORM, UNIT_BY_FORM } from '@skiptrace/matching';
import type { Sql } from '@skiptrace/storage';
import type { BatchRows } from './batch-rows.port.ts';
import { propertiesByIds, type PropertyColumns, type PropertyRow } from './property.repository.ts';

export type HistoryFilters = Pick<HistoryQuery, 'address' | 'name' | 'phone' | 'batch' | 'status' | 'from' | 'to'>;

/** True when the query names any filter (else the plain listing serves it). */
export const hasHistoryFilters = (q: HistoryFilters): boolean =>
  [q.address, q.name, q.phone, q.batch, q.status, q.from, q.to].some((v) => v !== undefined);

/** Words of an address in USPS form: upper case, ASCII, directionals, suffixes and unit types abbreviated. */
export function addressWords(text: string): string[] {
  return foldAscii(text)
    .split(/[^A-Z0-9]+/)
    .filter(Boolean)
    .map((w) => DIRECTIONAL_BY_FORM.get(w) ?? SUFFIX_BY_FORM.get(w) ?? UNIT_BY_FORM.get(w) ?? w);
}

/** The address of a row in USPS Publication 28 form (matching's standardisation). */
export function standardizedAddressOf(row: PropertyColumns) {
  const std = standardizeAddress(row);
  return {
    street_address: std.line || row.street_address.toUpperCase(),
    city: std.city,
    state: std.state ?? row.state.toUpperCase(),
    zip_code: std.zip5 ?? row.zip_code,
  };
}

/** Every word of the query is a word of the row's standardised address (the last may be a word's start). */
export function addressMatches(queryWords: readonly string[], row: PropertyColumns): boolean {
  const std = standardizedAddressOf(row);
  // The ZIP as given too: ZIP+4 whole (with or without its dash) and its two parts.
  const zip = row.zip_code.replace(/\D/g, '');
  const words = addressWords(
    `${std.street_address} ${std.city} ${std.state} ${std.zip_code} ${zip} ${zip.slice(0, 5)} ${zip.slice(5)}`,
  );
  return queryWords.every(
    (q, i) => words.includes(q) || (i === queryWords.length - 1 && words.some((w) => w.startsWith(q))),
  );
}

const likeWord = (w: string) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface HistoryPage {
  rows: PropertyRow[];
  /** The id to continue after, when there may be more. */
  next?: string;
}

/** One page of a History search; `after` is the cursor (the last row id of the page before). */
export async function searchProperties(
  sql: Sql,
  batchRows: BatchRows,
  accountId: string,
  filters: HistoryFilters,
  limit: number,
  after?: string,
  scanRows: number = HISTORY_SCAN_ROWS,
): Promise<HistoryPage> {
  const params: unknown[] = [accountId, after ?? null, scanRows];
  const param = (value: unknown) => `$${params.push(value)}`;
  const where: string[] = [];
  const inBatch = filters.batch !== undefined;
  let scan: string;
  if (inBatch) {
    const batch = param(filters.batch);
    // A batch's rows by (batch_id, row_number); the cursor row's number is where the page before ended.
    scan = `SELECT * FROM properties p
      WHERE p.batch_id = ${batch}::text AND p.account_id = $1
        AND ($2::bigint IS NULL OR p.row_number <
             (SELECT c.row_number FROM properties c WHERE c.id = $2::bigint AND c.batch_id = ${batch}::text))
      ORDER BY p.row_number DESC LIMIT $3`;
  } else {
    scan = `SELECT * FROM properties p
      WHERE p.account_id = $1 AND ($2::bigint IS NULL OR p.id < $2::bigint)
      ORDER BY p.id DESC LIMIT $3`;
  }
  const { from, to } = historyRange(filters);
  if (from) where.push(`s.created_at >= ${param(from)}::timestamptz`);
  if (to) where.push(`s.created_at < ${param(to)}::timestamptz`);
  const needsOutcome = filters.status !== undefined || filters.phone !== undefined || filters.name !== undefined;
  const results = `CASE WHEN o.status IS NOT NULL THEN o.results ELSE s.results::jsonb END`;
  if (filters.status) where.push(`coalesce(o.status, s.status) = ${param(filters.status)}`);
  if (filters.phone) {
    const e164 = phoneFilterOf(filters.phone);
    where.push(`${results} @> ${param(JSON.stringify([{ phones: [{ number: e164 }] }]))}::jsonb`);
  }
  if (filters.name) {
    const words = param(foldAscii(filters.name).toLowerCase().split(/\s+/).filter(Boolean).map(likeWord));
    where.push(`(lower(concat_ws(' ', s.first_name, s.last_name)) LIKE ALL (${words}::text[])
      OR EXISTS (SELECT 1 FROM jsonb_array_elements(${results}) e
                  WHERE lower(concat_ws(' ', e->>'first_name', e->>'middle_name', e->>'last_name')) LIKE ALL (${words}::text[])))`);
  }
  const { rows: scanned } = await sql.query<PropertyColumns & { id: string; hit: boolean }>(
    `SELECT s.id, s.street_address, s.city, s.state, s.zip_code,
            ${where.length > 0 ? where.join(' AND ') : 'true'} AS hit
       FROM (${scan}) s
       ${needsOutcome ? `LEFT JOIN LATERAL ${batchRows.outcomeSql('s')} o ON s.batch_id IS NOT NULL` : ''}
      ORDER BY ${inBatch ? 's.row_number DESC' : 's.id DESC'}`,
    params,
  );
  const queryWords = filters.address ? addressWords(filters.address) : [];
  const hits: string[] = [];
  let next: string | undefined;
  for (const row of scanned) {
    if (!row.hit || (queryWords.length > 0 && !addressMatches(queryWords, row))) continue;
    if (hits.length === limit) {
      next = hits[hits.length - 1];
      break;
    }
    hits.push(String(row.id));
  }
  // The budget ran out before the page filled: go on after the last row examined.
  if (next === undefined && scanned.length === scanRows) {
    next = String(scanned[scanned.length - 1]!.id);
  }
  return { rows: await propertiesByIds(sql, batchRows, accountId, hits), next };
}
