/**
 * HTTP routes of the batch API, relative to /api/v1. The upload route reads the raw body
 * itself (the gateway mounts this router before its JSON parser for that path).
 */
import { createHash } from 'node:crypto';
import { PassThrough, Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { batchesApi, type ApiScope, type BatchAccepted, type BatchStatus } from '@skiptrace/contracts';
import { checkIdempotencyKey } from '@skiptrace/core';
import type { MessageBus } from '@skiptrace/messaging';
import {
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
import { parseColumnMap } from './columns.ts';
import { BatchesConfig } from './config.ts';
import {
  BATCH_COLUMNS,
  BATCH_FROM,
  completeIfDone,
  publishChunks,
  queueBatch,
  toSummary,
  openStoredChunks,
  type ChunkRef,
  type BatchRow,
} from './dispatch.ts';
import { csvHeader, exportText, writeWithBackpressure } from './export.ts';
import { createExportSlots } from './export-slots.ts';
import { ingest } from './ingest.ts';
import { deleteBatchData, failRemainingRows } from './results.ts';
import type { Format } from './sources.ts';

export interface BatchesRouterDeps {
  db: Database;
  bus: MessageBus;
  auth: { requireScope(scope: ApiScope): RequestHandler };
  config?: Partial<BatchesConfig>;
  logger?: Logger;
}

const BASE = '/property/skiptrace/batches';
const account = (req: Request) => req.auth!.accountId;

function formatOf(req: Request): Format {
  if (req.is('text/csv')) return 'csv';
  if (req.is(['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines'])) {
    return 'ndjson';
  }
  if (req.is('application/json')) return 'json';
  throw new ApiError(
    'unsupported_media_type',
    'Content-Type must be text/csv, application/x-ndjson or application/json (an array of Property objects)',
  );
}

/**
 * The upload as sent before its Content-Encoding (gzip, deflate, br; the gateway's input
 * boundary refuses others with 415). A body that is not what its coding says fails the
 * upload with 400 (zlib's error, answered by the error middleware). What it may expand to is
 * bounded while streaming (BATCH_MAX_INFLATED_BYTES, BATCH_MAX_INFLATION_RATIO → 413): blank
 * lines reach no row limit, so without these a few KB of brotli keep a core busy for minutes.
 * The inflater only runs as fast as the ingest reads, and stops with the request.
 */
const INFLATE = new Map([
  ['gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
]);

/** Expanded bytes below which the inflation ratio is not judged (small files compress well). */
const RATIO_FLOOR_BYTES = 1024 * 1024;

function decompressed(
  body: Readable,
  coding: string | undefined,
  limits: Pick<BatchesConfig, 'maxInflatedBytes' | 'maxInflationRatio'>,
): Readable {
  const name = coding?.trim().toLowerCase();
  if (!name || name === 'identity') return body;
  const make = INFLATE.get(name);
  if (!make) throw new ApiError('unsupported_media_type', `Content-Encoding "${name.slice(0, 40)}" is not supported`);
  // Started when the reader starts: a zlib error before then would have no listener.
  async function* inflate(): AsyncGenerator<Buffer> {
    const stream = make!();
    let bytesIn = 0;
    let bytesOut = 0;
    body.on('data', (chunk: Buffer) => (bytesIn += chunk.length));
    body.on('error', (err) => stream.destroy(err));
    try {
      for await (const chunk of body.pipe(stream) as AsyncIterable<Buffer>) {
        bytesOut += chunk.length;
        if (bytesOut > limits.maxInflatedBytes)
          throw new ApiError(
            'payload_too_large',
            `the upload expands to more than ${limits.maxInflatedBytes} bytes (BATCH_MAX_INFLATED_BYTES); nothing was stored`,
          );
        if (bytesOut > RATIO_FLOOR_BYTES && bytesOut > bytesIn * limits.maxInflationRatio)
          throw new ApiError(
            'payload_too_large',
            `the upload expands more than ${limits.maxInflationRatio}-fold (BATCH_MAX_INFLATION_RATIO): refused as a decompression bomb; nothing was stored`,
          );
        yield chunk;
      }
    } finally {
      // Refused, failed or abandoned: stop inflating and stop reading the request.
      stream.destroy();
      body.unpipe(stream);
    }
  }
  return Readable.from(inflate(), { objectMode: false });
}

/** Keyset cursors of this listing carry the kind `batch`. */
const CURSOR = 'batch';

async function findBatch(db: Database, accountId: string, id: string): Promise<BatchRow | undefined> {
  const { rows } = await db.query<BatchRow>(
    `SELECT ${BATCH_COLUMNS} FROM ${BATCH_FROM} WHERE b.id = $1 AND b.account_id = $2 AND b.status <> 'receiving'`,
    [id, accountId],
  );
  return rows[0];
}

const BATCH_STATUSES = ['receiving', 'queued', 'running', 'completed', 'cancelled', 'failed'];

export function createBatchesRouter(deps: BatchesRouterDeps): Router {
  const { db, bus, auth } = deps;
  const config = BatchesConfig.parse(deps.config ?? {});
  const exportSlots = createExportSlots({ perAccount: config.exportsPerAccount, perProcess: config.exportsPerProcess });
  const router = Router();
  // skiptrace_batches{status}: read at scrape time from the store every replica shares.
  setBatchCountsSource(async () => {
    const counts: Record<string, number> = Object.fromEntries(BATCH_STATUSES.map((s) => [s, 0]));
    const { rows } = await db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM batches GROUP BY status',
    );
    for (const { status, n } of rows) counts[status] = n;
    return counts;
  });
  const statusUrl = (id: string) => `${config.basePath}${BASE}/${id}`;

  /** The status document: the summary plus timestamps, rate (rows/s) and ETA (s). */
  function status(row: BatchRow): BatchStatus {
    const end = row.completed_at ?? new Date();
    const seconds = row.started_at ? Math.max((end.getTime() - row.started_at.getTime()) / 1000, 0.001) : 0;
    const rate = seconds > 0 ? row.processed / seconds : 0;
    const remaining = Math.max(row.total - row.rejected - row.processed, 0);
    const active = row.status === 'queued' || row.status === 'running';
    return {
      ...toSummary(row),
      accepted: row.total - row.rejected,
      started_at: row.started_at?.toISOString() ?? null,
      updated_at: row.updated_at.toISOString(),
      rate: Math.round(rate * 10) / 10,
      eta_seconds: active && rate > 0 ? Math.ceil(remaining / rate) : null,
      status_url: statusUrl(String(row.id)),
      results_url: `${statusUrl(String(row.id))}/results`,
    };
  }

  function accepted(res: Response, row: BatchRow) {
    res.status(202).set('Location', statusUrl(String(row.id)));
    const body: BatchAccepted = {
      id: String(row.id),
      status: toSummary(row).status,
      accepted: row.total - row.rejected,
      rejected: row.rejected,
      status_url: statusUrl(String(row.id)),
    };
    res.json(body);
  }

  async function replay(req: Request, res: Response, key: string, hash: string): Promise<boolean> {
    const { rows } = await db.query<{ request_hash: string; batch_id: string }>(
      `SELECT request_hash, batch_id FROM batch_idempotency_keys
       WHERE account_id = $1 AND key = $2 AND created_at > now() - interval '24 hours'`,
      [account(req), key],
    );
    const earlier = rows[0];
    if (!earlier) return false;
    if (earlier.request_hash !== hash) {
      throw new ApiError('idempotency_conflict', 'Idempotency-Key was already used with a different request body');
    }
    const row = await findBatch(db, account(req), String(earlier.batch_id));
    if (!row) return false;
    accepted(res, row);
    return true;
  }

  const mount = { router, requireScope: auth.requireScope };

  mountRoute(mount, batchesApi.submitBatch, async ({ query, headers }, req, res) => {
    const format = formatOf(req);
    const map = parseColumnMap(query.map);
    const key = checkIdempotencyKey(headers['Idempotency-Key']);
    const hasher = createHash('sha256').update(`${format}\n${JSON.stringify(map)}\n`);
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hasher.update(chunk);
        done(null, chunk);
      },
    });
    req.pipe(tap);
    /** Publishes claimed chunks; false when the broker failed (the chunks are stored: the batch sweep publishes them). */
    const publishOrLeave = async (batchId: string, chunks: ChunkRef[]): Promise<boolean> => {
      try {
        await publishChunks(bus, account(req), batchId, chunks);
        return true;
      } catch (err) {
        (req.log ?? deps.logger)?.warn({ err, batchId }, 'chunk publish failed; left to the sweep');
        return false;
      }
    };
    try {
      if (key && (await keyInUse(account(req), key))) {
        // Only the hash decides now: read the body without storing it.
        tap.pipe(new PassThrough()).resume();
        await new Promise<void>((resolve, reject) => tap.on('end', resolve).on('error', reject));
        const hash = hasher.digest('hex');
        if (await replay(req, res, key, hash)) return;
        throw new ApiError('conflict', 'the batch this Idempotency-Key created no longer exists');
      }
      // Tracing starts with the first stored pages, not after the last (openStoredChunks).
      let unchunked = 1;
      const result = await ingest({
        db,
        accountId: account(req),
        format,
        body: decompressed(tap, req.get('content-encoding'), config),
        map,
        charset: charsetOf(req.get('content-type')),
        config,
        logger: req.log ?? deps.logger,
        async onRowsStored(batchId, throughRow) {
          const opened = await openStoredChunks(
            db,
            batchId,
            unchunked,
            throughRow,
            config.chunkSize,
            config.chunksInFlight,
          );
          unchunked = opened.nextRow;
          await publishOrLeave(batchId, opened.claimed);
        },
      });
      const hash = hasher.digest('hex');
      if (key) {
        const { rowCount } = await db.query(
          `INSERT INTO batch_idempotency_keys (account_id, key, request_hash, batch_id) VALUES ($1, $2, $3, $4)
           ON CONFLICT (account_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash,
             batch_id = EXCLUDED.batch_id, created_at = now()
           WHERE batch_idempotency_keys.created_at <= now() - interval '24 hours'`,
          [account(req), key, hash, result.batchId],
        );
        if (rowCount === 0) {
          // A concurrent upload with the same key won: drop ours, answer with the winner's.
          await deleteBatchData(db, result.batchId);
          if (await replay(req, res, key, hash)) return;
          throw new ApiError('conflict', 'a concurrent upload with this Idempotency-Key failed');
        }
      }
      const chunks = await queueBatch(db, result.batchId, config.chunkSize, config.chunksInFlight, unchunked);
      if (await publishOrLeave(result.batchId, chunks)) {
        // Chunks traced while the upload went on may have been the last ones.
        await completeIfDone(db, bus, result.batchId).catch((err: unknown) =>
          (req.log ?? deps.logger)?.warn(
            { err, batchId: result.batchId },
            'batch completion failed; left to the sweep',
          ),
        );
      }
      accepted(res, (await findBatch(db, account(req), result.batchId))!);
    } catch (err) {
      // Answer now, and let the rest of the body drain rather than reset the connection.
      req.unpipe(tap);
      req.resume();
      throw err;
    }
  });

  async function keyInUse(accountId: string, key: string): Promise<boolean> {
    const { rows } = await db.query(
      `SELECT 1 FROM batch_idempotency_keys WHERE account_id = $1 AND key = $2 AND created_at > now() - interval '24 hours'`,
      [accountId, key],
    );
    return rows.length > 0;
  }

  mountRoute(mount, batchesApi.listBatches, async ({ query: { limit, cursor } }, req, res) => {
    const { rows } = await db.query<BatchRow>(
      `SELECT ${BATCH_COLUMNS} FROM ${BATCH_FROM}
       WHERE b.account_id = $1 AND b.status <> 'receiving' AND ($2::bigint IS NULL OR b.id < $2::bigint)
       ORDER BY b.id DESC LIMIT $3`,
      [account(req), cursor ? decodeCursor(CURSOR, cursor) : null, limit + 1],
    );
    const page = rows.slice(0, limit);
    if (rows.length > limit) {
      const next = encodeCursor(CURSOR, page[page.length - 1]!.id);
      res.set('X-Next-Cursor', next);
      res.set('Link', `<${req.baseUrl}${BASE}?limit=${limit}&cursor=${next}>; rel="next"`);
    }
    res.json(page.map(status));
  });

  mountRoute(mount, batchesApi.getBatch, async ({ params }, req, res) => {
    const row = await findBatch(db, account(req), params.id);
    if (!row) throw notFound('batch');
    res.json(status(row));
  });

  mountRoute(mount, batchesApi.exportBatch, async ({ params, query }, req, res) => {
    const row = await findBatch(db, account(req), params.id);
    if (!row) throw notFound('batch');
    // Until the response closes, finished or cut off by the client.
    res.once('close', exportSlots.take(account(req)));
    const asked = query.format;
    const type =
      asked === 'ndjson'
        ? 'application/x-ndjson'
        : asked === 'csv'
          ? 'text/csv'
          : req.accepts(['text/csv', 'application/x-ndjson']);
    const csv = type !== 'application/x-ndjson';
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

  mountRoute(mount, batchesApi.cancelBatch, async ({ params: { id }, query }, req, res) => {
    const row = await findBatch(db, account(req), id);
    if (!row) throw notFound('batch');
    if (query.purge === 'true') {
      await deleteBatchData(db, id);
      return void res.status(204).end();
    }
    if (row.status === 'completed' || row.status === 'failed') {
      throw new ApiError('conflict', `batch is ${row.status}; only ?purge=true removes it`);
    }
    await db.transaction(async (tx) => {
      await tx.query(
        `UPDATE batches SET status = 'cancelled', completed_at = now(), updated_at = now()
         WHERE id = $1 AND status IN ('queued', 'running')`,
        [id],
      );
      await failRemainingRows(tx, id, 'batch cancelled', new Date());
      await tx.query(`UPDATE batch_chunks SET state = 'done' WHERE batch_id = $1 AND state <> 'done'`, [id]);
    });
    res.json(status((await findBatch(db, account(req), id))!));
  });

  return router;
}
