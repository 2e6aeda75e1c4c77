/**
 * Streams an upload into the store: rows are validated one by one and written with COPY
 * in pages (accepted rows as core's batch inputs, rejected rows into `batch_rejects`), so memory
 * stays bounded whatever the size of the body. The batch stays 'receiving' (invisible to
 * the API) until every row is stored; any failure deletes what was written. A large
 * upload ends with ANALYZE of the tables it filled (analyzeAfterLoad).
 */
import type { Readable } from 'node:stream';
import { ADDRESS_FIELDS, Property } from '@skiptrace/contracts';
import { analyzeBatchInputs, batchInputValues, copyBatchInputs } from '@skiptrace/core';
import { detectNameOrder, parseOwnerNames, type NameOrder } from '@skiptrace/owners';
import { ApiError, checkJsonText, eventLoopSlices, storableText, textProblem, type Logger } from '@skiptrace/runtime';
import { analyzeAfterLoad, type Database, type Sql } from '@skiptrace/storage';
import {
  FIELDS,
  MAILING_FIELDS,
  mappingWarnings,
  resolveColumns,
  type ColumnMap,
  type Field,
  type MappingWarning,
  type Resolution,
} from './columns.ts';
import { SLICE_MS, type BatchesConfig } from './config.ts';
import { deleteBatchData } from './results.ts';
import { sourceFor, type Format, type ReadOptions, type SourceInfo, type SourceItem } from './sources.ts';
import { holdUploadLease, UPLOAD_OWNER } from './upload-lease.ts';

const REJECT_COLUMNS = ['batch_id', 'row_number', 'reason', 'raw'];
const REQUIRED: readonly Field[] = ADDRESS_FIELDS;
/** Rejected rows keep at most this much of an unparseable line, characters. */
const RAW_TEXT_LIMIT = 2_000;

export interface IngestInput {
  db: Database;
  accountId: string;
  /** The API client uploading (the token's client_id): usage is counted per client. */
  clientId?: string;
  format: Format;
  body: Readable;
  map: ColumnMap;
  /** How to read it: declared charset (Content-Type, ?charset=), CSV delimiter, XLSX sheet. */
  read?: ReadOptions;
  /** The list's name and tags, and whether every row is traced afresh (no reuse). */
  identity?: BatchIdentity;
  /**
   * The account's saved mapping for a header set (mappings.ts), used when `map` is empty;
   * the header set's mapping is saved after a successful upload when `saveMapping` is set.
   */
  savedMapping?: (columns: readonly string[]) => Promise<ColumnMap | undefined>;
  config: Pick<
    BatchesConfig,
    | 'maxRows'
    | 'pageRows'
    | 'maxRowBytes'
    | 'maxColumns'
    | 'uploadHeartbeatMs'
    | 'maxInflatedBytes'
    | 'maxInflationRatio'
  >;
  /** Where a failed lease renewal is logged. */
  logger?: Logger;
  /**
   * Called after each page of accepted rows is stored, with the batch and the last input row
   * read: every accepted row up to it is stored (the router opens their chunks).
   */
  onRowsStored?: (batchId: string, throughRow: number) => Promise<void>;
}

export interface IngestResult {
  batchId: string;
  total: number;
  accepted: number;
  rejected: number;
  /** The header and how it was mapped: the map used (explicit, saved or aliases) and what it deserves a warning for. */
  columns: string[];
  mapping: ColumnMap;
  mappingSource: 'request' | 'saved' | 'aliases';
  warnings: MappingWarning[];
  info: SourceInfo;
}

/** Rows read before a batch is created when owners' whole names are mapped, to detect their name order. */
const LOOKAHEAD_ROWS = 200;

/** 400 for an upload without a row to trace: nothing is created. */
export function emptyUpload(columns: readonly string[]): ApiError {
  return new ApiError(
    'validation_failed',
    columns.length === 0
      ? 'the file is empty: no header and no rows; nothing was stored'
      : `the file has a header (${columns.length} columns) but no rows; nothing was stored`,
  );
}

/** The map a resolution amounts to: field → the column that feeds it. */
export function mappingOf(columns: readonly string[], resolution: Resolution): ColumnMap {
  const map: ColumnMap = {};
  for (const field of Object.keys(resolution) as Field[]) {
    if (resolution[field] >= 0) map[field] = columns[resolution[field]];
  }
  return map;
}

type Validated = { property: Property } | { reason: string };

/** Builds the Property a row feeds and validates it; the reason names every bad field. */
export function validateRow(
  cells: readonly unknown[],
  resolution: Resolution,
  columns: readonly string[] = [],
  nameOrder?: NameOrder,
): Validated {
  const candidate: Record<string, string> = {};
  const problems: string[] = [];
  // Text PostgreSQL cannot store (NUL) or no address holds: the row is refused, naming the column.
  for (let i = 0; i < cells.length; i++) {
    const problem = cellProblem(cells[i]);
    if (problem) return { reason: `column ${JSON.stringify(storableText(columns[i] ?? String(i + 1)))} ${problem}` };
  }
  for (const field of FIELDS) {
    const i = resolution[field];
    const value = i >= 0 ? cells[i] : undefined;
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'string') candidate[field] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') candidate[field] = String(value);
    else problems.push(`${field}: must be text`);
  }
  // The owner's whole name in one column feeds first and last name when the row has neither.
  const whole = resolution.owner_name >= 0 ? cells[resolution.owner_name] : undefined;
  if (
    candidate.first_name === undefined &&
    candidate.last_name === undefined &&
    typeof whole === 'string' &&
    whole.trim()
  ) {
    const person = parseOwnerNames([whole], { order: nameOrder }).find((o) => o.lastName !== undefined);
    if (person?.lastName) {
      candidate.last_name = person.lastName;
      if (person.firstName) candidate.first_name = person.firstName;
    }
  }
  for (const field of REQUIRED) {
    if (candidate[field] === undefined && !problems.some((p) => p.startsWith(`${field}:`))) {
      problems.push(`${field}: missing`);
    }
  }
  // The mailing columns feed one nested address: used when its street is given (then the
  // other three are required), ignored without one (a ZIP alone ties nobody).
  const mailing: Record<string, string> = {};
  for (const field of MAILING_FIELDS) {
    if (candidate[field] !== undefined) mailing[field.slice('mailing_'.length)] = candidate[field];
    delete candidate[field];
  }
  const request: Record<string, unknown> = candidate;
  if (mailing.street_address !== undefined) {
    for (const field of MAILING_FIELDS) {
      if (mailing[field.slice('mailing_'.length)] === undefined && !problems.some((p) => p.startsWith(`${field}:`))) {
        problems.push(`${field}: missing`);
      }
    }
    request.mailing_address = mailing;
  }
  const parsed = Property.safeParse(request);
  if (parsed.success && problems.length === 0) {
    const property = parsed.data;
    if (property.first_name === '') delete property.first_name;
    if (property.last_name === '') delete property.last_name;
    return { property };
  }
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.join('.').replace(/^mailing_address\./, 'mailing_');
      if (!problems.some((p) => p.startsWith(`${field}:`))) problems.push(`${field}: ${issue.message}`);
    }
  }
  const order = (p: string) => {
    const at = (FIELDS as readonly string[]).indexOf(p.slice(0, p.indexOf(':')));
    return at === -1 ? FIELDS.length : at;
  };
  problems.sort((a, b) => order(a) - order(b));
  return { reason: problems.join('; ') };
}

/** A batch's identity: its name and tags, whether it is traced afresh, and the batch it re-runs. */
export interface BatchIdentity {
  name?: string;
  tags?: string[];
  fresh?: boolean;
  rerunOf?: string;
}

export async function createReceivingBatch(
  db: Sql,
  accountId: string,
  format: Format,
  clientId?: string,
  identity: BatchIdentity = {},
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO batches (account_id, format, upload_owner, upload_heartbeat_at, client_id, name, tags, fresh, rerun_of)
     VALUES ($1, $2, $3, now(), $4, $5, $6::text[], $7, $8) RETURNING id`,
    [
      accountId,
      format,
      UPLOAD_OWNER,
      clientId ?? null,
      identity.name ?? null,
      identity.tags ?? [],
      identity.fresh ?? false,
      identity.rerunOf ?? null,
    ],
  );
  return rows[0]!.id;
}

export async function ingest(input: IngestInput): Promise<IngestResult> {
  const { db, accountId, format, body, config } = input;
  const source = sourceFor(format, body, config, input.read);
  // The first rows before a batch exists: an upload without one is refused with nothing created.
  const rows = source.items[Symbol.asyncIterator]();
  const ahead: SourceItem[] = [];
  const readAhead = async (upTo: number) => {
    while (ahead.length < upTo) {
      const next = await rows.next();
      if (next.done) break;
      ahead.push(next.value);
    }
  };
  await readAhead(1);
  if (ahead.length === 0) throw emptyUpload(source.columns);
  let map = input.map;
  let mappingSource: IngestResult['mappingSource'] = Object.keys(map).length > 0 ? 'request' : 'aliases';
  if (mappingSource === 'aliases' && input.savedMapping) {
    const saved = await input.savedMapping(source.columns);
    if (saved) {
      map = saved;
      mappingSource = 'saved';
    }
  }
  // Mapped before a batch exists: a map naming a column the header lacks is refused with nothing created.
  let resolution: Resolution | undefined;
  let resolvedWidth = -1;
  let nameOrder: NameOrder | undefined;
  let analyzed = false;
  const slices = eventLoopSlices(SLICE_MS);
  const resolve = () => {
    resolution = resolveColumns(source.columns, map);
    resolvedWidth = source.columns.length;
    if (format !== 'ndjson' && format !== 'json' && mappingSource === 'request') assertMapped(map, resolution);
  };
  resolve();
  if (resolution!.owner_name >= 0) {
    // Whole names ("JOHN A SMITH" or "SMITH JOHN A"): the file's order, from its first rows.
    await readAhead(LOOKAHEAD_ROWS);
    const at = resolution!.owner_name;
    nameOrder = detectNameOrder(
      ahead.flatMap((item) => ('cells' in item && typeof item.cells[at] === 'string' ? [[item.cells[at]]] : [])),
    );
  }
  const first = { resolution: resolution!, columns: [...source.columns] };
  const batchId = await createReceivingBatch(db, accountId, format, input.clientId, input.identity);
  // This process owns the upload while it lives (upload-lease.ts); the sweep ends it if not.
  const lease = holdUploadLease(db, batchId, config.uploadHeartbeatMs, (err) =>
    input.logger?.warn({ err, batchId }, 'upload heartbeat failed'),
  );
  const columnsJson = (columns: readonly string[]) => JSON.stringify(columns.map(storableText));
  let storedWidth = 0;
  try {
    let accepted: unknown[][] = [];
    let rejected: unknown[][] = [];
    let acceptedCount = 0;
    let rejectedCount = 0;
    let row = 0;
    const flush = async (all: boolean) => {
      if (accepted.length >= config.pageRows || (all && accepted.length > 0)) {
        await copyBatchInputs(db, accepted);
        accepted = [];
        // The columns so far, so a batch whose upload dies after this page still exports.
        if (!all && source.columns.length !== storedWidth) {
          storedWidth = source.columns.length;
          await db.query(`UPDATE batches SET columns = $2::jsonb WHERE id = $1`, [
            batchId,
            columnsJson(source.columns),
          ]);
        }
        if (!all && input.onRowsStored) {
          // The first chunks read these rows at once: a store that never had statistics gets some.
          if (!analyzed) analyzed = await analyzeBatchInputs(db, acceptedCount).then(() => true);
          await input.onRowsStored(batchId, row);
        }
      }
      if (rejected.length >= config.pageRows || (all && rejected.length > 0)) {
        await db.copyRows('batch_rejects', REJECT_COLUMNS, rejected);
        rejected = [];
      }
    };
    async function* all(): AsyncGenerator<SourceItem> {
      yield* ahead;
      for (let next = await rows.next(); !next.done; next = await rows.next()) yield next.value;
    }
    for await (const item of all()) {
      if (lease.lost) throw uploadEnded();
      row++;
      if (row > config.maxRows) {
        throw new ApiError('payload_too_large', `a batch holds at most ${config.maxRows} rows; nothing was stored`);
      }
      if ('invalid' in item) {
        rejected.push([batchId, row, item.invalid, JSON.stringify(storableText(item.text.slice(0, RAW_TEXT_LIMIT)))]);
        rejectedCount++;
      } else {
        if (source.columns.length !== resolvedWidth) resolve();
        const result = validateRow(item.cells, resolution!, source.columns, nameOrder);
        if ('property' in result) {
          accepted.push(batchInputValues(accountId, result.property, batchId, row, item.cells));
          acceptedCount++;
        } else {
          rejected.push([batchId, row, result.reason, storableCells(item.cells)]);
          rejectedCount++;
        }
      }
      if (accepted.length >= config.pageRows || rejected.length >= config.pageRows) await flush(false);
      // A turn of the event loop after every SLICE_MS of parsing and validating: a 64 KiB body
      // chunk is ~1,000 rows, and in the one-process system synchronous requests wait behind
      // it (sync p99 255 ms during a 1,000,000-row upload vs 101 ms during the trace).
      else await slices.maybeYield();
    }
    await flush(true);
    // The chunk queries read this batch's rows by (batch_id, row_number) range; a large
    // batch changes the table's shape, so its statistics are refreshed before they run.
    await analyzeBatchInputs(db, acceptedCount);
    await analyzeAfterLoad(db, 'batch_rejects', rejectedCount);
    const { rowCount } = await db.query(
      `UPDATE batches SET columns = $2::jsonb, total = $3, rejected = $4, upload_heartbeat_at = now()
       WHERE id = $1 AND status = 'receiving' AND upload_owner = $5`,
      [batchId, columnsJson(source.columns), row, rejectedCount, UPLOAD_OWNER],
    );
    if (rowCount === 0) throw uploadEnded();
    return {
      batchId,
      total: row,
      accepted: acceptedCount,
      rejected: rejectedCount,
      columns: first.columns,
      mapping: mappingOf(first.columns, first.resolution),
      mappingSource,
      warnings: mappingWarnings(first.columns, first.resolution),
      info: source.info,
    };
  } catch (err) {
    // Deleted only while still receiving: an upload the sweep already ended stays, failed
    // with its reason and every row it traced.
    await deleteBatchData(db, batchId, { onlyReceiving: true });
    throw err;
  } finally {
    lease.stop();
  }
}

/** This process lost the upload's lease (it stalled past BATCH_UPLOAD_LEASE_MS) and the sweep ended the batch. */
const uploadEnded = () =>
  new ApiError(
    'unavailable',
    'the upload stalled on the server past its lease and was ended; its batch is failed, upload again',
    { 'Retry-After': '5' },
  );

function cellProblem(cell: unknown): string | undefined {
  if (typeof cell === 'string') return textProblem(cell);
  if (cell === null || typeof cell !== 'object') return undefined;
  try {
    checkJsonText(cell, 'value');
    return undefined;
  } catch (err) {
    return (err as Error).message.replace(/^value\S* /, '');
  }
}

/** A refused row's cells as they can be stored for the reject report. */
function storableCells(cells: readonly unknown[]): unknown[] {
  return cells.map((cell) =>
    typeof cell === 'string' ? storableText(cell) : cellProblem(cell) ? storableText(JSON.stringify(cell)) : cell,
  );
}

function assertMapped(map: ColumnMap, resolution: Resolution): void {
  const missing = (Object.keys(map) as Field[]).filter((field) => resolution[field] < 0);
  if (missing.length > 0) {
    throw new ApiError(
      'validation_failed',
      `map names columns the header does not have: ${missing.map((f) => `${f}=${map[f]}`).join(', ')}`,
    );
  }
}
