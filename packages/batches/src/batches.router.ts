/**
 * HTTP routes of the batch API, relative to /api/v1: requests in, documents out. What they
 * do is the repository's (batch.repository.ts), the upload's (submit.ts) and the export's.
 * The upload route reads the raw body itself (the gateway mounts this router before its
 * JSON parser for that path).
 */
import {
  batchesApi,
  isOpenBatch,
  splitTags,
  type ApiScope,
  type BatchAccepted,
  type BatchStatus,
} from '@skiptrace/contracts';
import { auditContext, createAuditLog } from '@skiptrace/audit';
import { checkIdempotencyKey } from '@skiptrace/core';
import type { MessageBus } from '@skiptrace/messaging';
import {
  accountOf,
  ApiError,
  charsetOf,
  decodeCursor,
  encodeCursor,
  mountRoute,
  notFound,
  setBatchCountsSource,
  type Logger,
} from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  batchName,
  cancelBatch,
  countBatches,
  findBatch,
  listBatches,
  toSummary,
  updateBatch,
  type BatchRow,
} from './batch.repository.ts';
import ExcelJS from 'exceljs';
import { parseColumnMap } from './columns.ts';
import { BatchesConfig } from './config.ts';
import { delimiterOf } from './delimiter.ts';
import { csvHeader, exportColumns, exportText, exportXlsxRows, writeWithBackpressure } from './export.ts';
import { createExportSlots } from './export-slots.ts';
import { columnMappings } from './mappings.ts';
import { listRejects, rejectsCsv } from './rejects.ts';
import { deleteBatchData } from './results.ts';
import type { Format, ReadOptions, SourceInfo } from './sources.ts';
import { rerunBatch } from './rerun.ts';
import { previewUpload, submitBatch, type UploadReport } from './submit.ts';

export interface BatchesRouterDeps {
  db: Database;
  bus: MessageBus;
  auth: { requireScope(scope: ApiScope): RequestHandler };
  config?: Partial<BatchesConfig>;
  logger?: Logger;
}

const BASE = '/property/skiptrace/batches';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function formatOf(req: Request): Format {
  if (req.is(XLSX_TYPE)) return 'xlsx';
  if (req.is('text/csv')) return 'csv';
  if (req.is(['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines'])) {
    return 'ndjson';
  }
  if (req.is('application/json')) return 'json';
  throw new ApiError(
    'unsupported_media_type',
    `Content-Type must be text/csv, ${XLSX_TYPE} (an .xlsx workbook), application/x-ndjson or application/json (an array of Property objects)`,
  );
}

/** How to read the body: ?charset= (else the Content-Type's), ?delimiter=, ?sheet=. */
function readOptions(req: Request, query: { charset?: string; delimiter?: string; sheet?: string }): ReadOptions {
  const read: ReadOptions = {};
  const charset = query.charset?.trim().toLowerCase() || charsetOf(req.get('content-type'));
  if (charset) read.charset = charset;
  if (query.delimiter !== undefined && query.delimiter !== '') {
    const delimiter = delimiterOf(query.delimiter);
    if (!delimiter)
      throw new ApiError('invalid_parameter', 'delimiter must be one of , ; | or tab (comma, semicolon, pipe, tab)');
    read.delimiter = delimiter;
  }
  if (query.sheet?.trim()) read.sheet = query.sheet.trim();
  return read;
}

/** How the file was read and mapped, as the API names it (BatchPreview, BatchAccepted). */
function readReport(
  report: Pick<UploadReport, 'columns' | 'mapping' | 'mappingSource' | 'warnings'> & { info: SourceInfo },
) {
  const { info } = report;
  return {
    columns: report.columns,
    mapping: report.mapping,
    mapping_source: report.mappingSource,
    warnings: report.warnings,
    ...(info.encoding && { encoding: info.encoding.encoding, encoding_source: info.encoding.source }),
    ...(info.delimiter !== undefined && { delimiter: info.delimiter }),
    ...(info.sheet !== undefined && { sheet: info.sheet, sheets: info.sheets }),
  };
}

/** The file name of a Content-Disposition header (`filename*=UTF-8''…` or `filename="…"`), if any. */
export function fileNameOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header);
  let name: string | undefined;
  if (extended) {
    try {
      name = decodeURIComponent(extended[1]!.trim());
    } catch {
      name = undefined;
    }
  }
  name ??= /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i
    .exec(header)
    ?.slice(1)
    .find((v) => v !== undefined);
  // A path's last part, without control characters, as long as a name may be.
  const base = name
    ?.replace(/\\"/g, '"')
    .split(/[/\\]/)
    .pop()
    // eslint-disable-next-line no-control-regex -- dropping control characters is the point
    ?.replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return base ? base.slice(0, 200) : undefined;
}

/** Keyset cursors of this listing carry the kind `batch`. */
const CURSOR = 'batch';

export function createBatchesRouter(deps: BatchesRouterDeps): Router {
  const { db, bus, auth } = deps;
  const config = BatchesConfig.parse(deps.config ?? {});
  const audit = createAuditLog(db);
  const exportSlots = createExportSlots({ perAccount: config.exportsPerAccount, perProcess: config.exportsPerProcess });
  const router = Router();
  // skiptrace_batches{status}: read at scrape time from the store every replica shares.
  setBatchCountsSource(() => countBatches(db));
  const statusUrl = (id: string) => `${config.basePath}${BASE}/${id}`;

  /** The status document: the summary plus timestamps, rate (rows/s) and ETA (s). */
  function status(row: BatchRow): BatchStatus {
    const end = row.completed_at ?? new Date();
    const seconds = row.started_at ? Math.max((end.getTime() - row.started_at.getTime()) / 1000, 0.001) : 0;
    const rate = seconds > 0 ? row.processed / seconds : 0;
    const remaining = Math.max(row.total - row.rejected - row.processed, 0);
    const active = isOpenBatch(row.status);
    const duration = row.started_at
      ? Math.round(((row.completed_at ?? new Date()).getTime() - row.started_at.getTime()) / 100) / 10
      : null;
    return {
      ...toSummary(row),
      name: batchName(row),
      tags: row.tags,
      fresh: row.fresh,
      rerun_of: row.rerun_of === null ? null : String(row.rerun_of),
      phones: row.phones,
      mobile: row.mobile,
      mobile_share: row.phones > 0 ? Math.round((row.mobile / row.phones) * 1000) / 1000 : null,
      duration_seconds: duration,
      accepted: row.total - row.rejected,
      started_at: row.started_at?.toISOString() ?? null,
      updated_at: row.updated_at.toISOString(),
      rate: Math.round(rate * 10) / 10,
      eta_seconds: active && rate > 0 ? Math.ceil(remaining / rate) : null,
      status_url: statusUrl(String(row.id)),
      results_url: `${statusUrl(String(row.id))}/results`,
    };
  }

  function accepted(res: Response, { row, report }: { row: BatchRow; report?: UploadReport }) {
    res.status(202).set('Location', statusUrl(String(row.id)));
    const body: BatchAccepted = {
      id: String(row.id),
      status: toSummary(row).status,
      accepted: row.total - row.rejected,
      rejected: row.rejected,
      status_url: statusUrl(String(row.id)),
      ...(report && readReport(report)),
    };
    res.json(body);
  }

  const mount = { router, requireScope: auth.requireScope };

  mountRoute(mount, batchesApi.submitBatch, async ({ query, headers }, req, res) => {
    const upload = {
      accountId: accountOf(req),
      clientId: req.auth?.clientId,
      format: formatOf(req),
      map: parseColumnMap(query.map),
      key: checkIdempotencyKey(headers['Idempotency-Key']),
      body: req,
      contentEncoding: req.get('content-encoding'),
      read: readOptions(req, query),
      saveMapping: query.save_mapping === 'true',
      identity: {
        name: query.name ?? fileNameOf(req.get('content-disposition')),
        tags: query.tags === undefined ? undefined : splitTags(query.tags),
        fresh: query.fresh === 'true' ? true : undefined,
      },
    };
    accepted(res, await submitBatch({ db, bus, config, logger: req.log ?? deps.logger }, upload));
  });

  mountRoute(mount, batchesApi.previewBatch, async ({ query }, req, res) => {
    const preview = await previewUpload(
      { db, config },
      {
        accountId: accountOf(req),
        format: formatOf(req),
        map: parseColumnMap(query.map),
        body: req,
        contentEncoding: req.get('content-encoding'),
        read: readOptions(req, query),
        saveMapping: query.save_mapping === 'true',
        partial: query.partial === 'true',
      },
    );
    res.json({ format: preview.format, rows: preview.rows, ...readReport(preview) });
  });

  mountRoute(mount, batchesApi.listMappings, async (_input, req, res) => {
    res.json(await columnMappings.list(db, accountOf(req)));
  });

  mountRoute(mount, batchesApi.deleteMapping, async ({ params }, req, res) => {
    if (!(await columnMappings.remove(db, accountOf(req), params.id))) throw notFound('mapping');
    res.status(204).end();
  });

  mountRoute(mount, batchesApi.listBatches, async ({ query: { limit, cursor } }, req, res) => {
    const rows = await listBatches(db, accountOf(req), limit + 1, cursor ? decodeCursor(CURSOR, cursor) : null);
    const page = rows.slice(0, limit);
    if (rows.length > limit) {
      const next = encodeCursor(CURSOR, page[page.length - 1]!.id);
      res.set('X-Next-Cursor', next);
      res.set('Link', `<${req.baseUrl}${BASE}?limit=${limit}&cursor=${next}>; rel="next"`);
    }
    res.json(page.map(status));
  });

  mountRoute(mount, batchesApi.getBatch, async ({ params }, req, res) => {
    const row = await findBatch(db, accountOf(req), params.id);
    if (!row) throw notFound('batch');
    res.json(status(row));
  });

  mountRoute(mount, batchesApi.updateBatch, async ({ params, body }, req, res) => {
    const row = await updateBatch(db, accountOf(req), params.id, body);
    if (!row) throw notFound('batch');
    res.json(status(row));
  });

  mountRoute(mount, batchesApi.rerunBatch, async ({ params, body }, req, res) => {
    const source = await findBatch(db, accountOf(req), params.id);
    if (!source) throw notFound('batch');
    const row = await rerunBatch(
      { db, bus, config, logger: req.log ?? deps.logger },
      { accountId: accountOf(req), clientId: req.auth?.clientId, source, request: body },
    );
    accepted(res, { row });
  });

  mountRoute(mount, batchesApi.exportBatch, async ({ params, query }, req, res) => {
    const row = await findBatch(db, accountOf(req), params.id);
    if (!row) throw notFound('batch');
    // Until the response closes, finished or cut off by the client.
    res.once('close', exportSlots.take(accountOf(req)));
    const asked = query.format;
    const type =
      asked === 'ndjson'
        ? 'application/x-ndjson'
        : asked === 'csv'
          ? 'text/csv'
          : asked === 'xlsx'
            ? XLSX_TYPE
            : req.accepts(['text/csv', 'application/x-ndjson', XLSX_TYPE]);
    if (type === XLSX_TYPE) return exportXlsx(req, res, row);
    const csv = type !== 'application/x-ndjson';
    await audit.record({
      ...auditContext(req),
      action: 'export.downloaded',
      target: { type: 'batch', id: String(row.id) },
      details: { format: csv ? 'csv' : 'ndjson', status: row.status, rows: row.total },
    });
    res.status(200);
    res.set('Content-Type', csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    res.set('Content-Disposition', `attachment; filename="batch-${row.id}.${csv ? 'csv' : 'ndjson'}"`);
    res.set('X-Batch-Status', row.status);
    try {
      if (csv) await writeWithBackpressure(res, csvHeader(row.columns));
      const batch = { id: String(row.id), total: row.total, width: row.columns.length };
      for await (const text of exportText(db, batch, csv ? 'csv' : 'ndjson', config.pageRows)) {
        await writeWithBackpressure(res, text);
      }
      res.end();
    } catch (err) {
      // Headers are gone: the only honest signal left is an aborted response.
      (req.log ?? deps.logger)?.warn({ err, batchId: row.id }, 'export aborted');
      res.destroy(err as Error);
    }
  });

  /** The export as one workbook, sheet "Results": the CSV export's columns and rows, streamed. */
  async function exportXlsx(req: Request, res: Response, row: BatchRow) {
    res.status(200);
    res.set('Content-Type', XLSX_TYPE);
    res.set('Content-Disposition', `attachment; filename="batch-${row.id}.xlsx"`);
    res.set('X-Batch-Status', row.status);
    try {
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: false, useSharedStrings: false });
      const sheet = book.addWorksheet('Results');
      sheet.addRow([...row.columns, ...exportColumns(row.columns)]).commit();
      const batch = { id: String(row.id), total: row.total, width: row.columns.length };
      for await (const rows of exportXlsxRows(db, batch, config.pageRows)) {
        if (res.destroyed) throw new Error('client disconnected');
        for (const cells of rows) sheet.addRow(cells).commit();
      }
      sheet.commit();
      await book.commit();
    } catch (err) {
      (req.log ?? deps.logger)?.warn({ err, batchId: row.id }, 'export aborted');
      res.destroy(err as Error);
    }
  }

  mountRoute(mount, batchesApi.listRejects, async ({ params, query }, req, res) => {
    const row = await findBatch(db, accountOf(req), params.id);
    if (!row) throw notFound('batch');
    if (query.format !== 'csv') return void res.json(await listRejects(db, params.id, query.after, query.limit));
    res.once('close', exportSlots.take(accountOf(req)));
    res.status(200);
    res.set('Content-Type', 'text/csv; charset=utf-8');
    res.set('Content-Disposition', `attachment; filename="batch-${row.id}-rejects.csv"`);
    try {
      for await (const text of rejectsCsv(db, params.id, row.columns, config.pageRows)) {
        await writeWithBackpressure(res, text);
      }
      res.end();
    } catch (err) {
      (req.log ?? deps.logger)?.warn({ err, batchId: row.id }, 'rejects export aborted');
      res.destroy(err as Error);
    }
  });

  mountRoute(mount, batchesApi.cancelBatch, async ({ params: { id }, query }, req, res) => {
    const row = await findBatch(db, accountOf(req), id);
    if (!row) throw notFound('batch');
    if (query.purge === 'true') {
      await deleteBatchData(db, id);
      await audit.record({ ...auditContext(req), action: 'batch.erased', target: { type: 'batch', id } });
      return void res.status(204).end();
    }
    if (row.status === 'completed' || row.status === 'failed') {
      throw new ApiError('conflict', `batch is ${row.status}; only ?purge=true removes it`);
    }
    await cancelBatch(db, id);
    res.json(status((await findBatch(db, accountOf(req), id))!));
  });

  return router;
}
