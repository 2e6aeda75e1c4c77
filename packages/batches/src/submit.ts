/**
 * Receiving a batch upload: the body as sent (decoded from its Content-Encoding, bounded),
 * streamed into the store (ingest.ts), its chunks opened and published while it is received
 * and when it is complete (dispatch.ts), and its Idempotency-Key: a key used within 24 hours
 * answers with the batch it created (the same body) or 409 (another one).
 */
import { createHash } from 'node:crypto';
import { PassThrough, Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { MessageBus } from '@skiptrace/messaging';
import { ApiError, type Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import { batchIdempotency, findBatch, type BatchRow } from './batch.repository.ts';
import { mappingWarnings, resolveColumns, type ColumnMap, type MappingWarning } from './columns.ts';
import type { BatchesConfig } from './config.ts';
import { completeIfDone, openStoredChunks, publishChunks, queueBatch, type ChunkRef } from './dispatch.ts';
import { emptyUpload, ingest, mappingOf, type BatchIdentity, type IngestResult } from './ingest.ts';
import { columnMappings } from './mappings.ts';
import { deleteBatchData } from './results.ts';
import { sourceFor, type Format, type ReadOptions, type SourceInfo } from './sources.ts';

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

export interface Upload {
  accountId: string;
  /** The token's client_id, recorded with the batch (usage per client). */
  clientId?: string;
  format: Format;
  map: ColumnMap;
  /** The body as sent. */
  body: Readable;
  /** Its Content-Encoding, if any. */
  contentEncoding?: string;
  /** The charset declared (?charset= or the Content-Type's), the CSV delimiter, the XLSX sheet. */
  read?: ReadOptions;
  /** Remember the mapping used for this header set (saved mappings, mappings.ts). */
  saveMapping?: boolean;
  /** The list's name and tags; fresh: trace every row again (no reuse). */
  identity?: BatchIdentity;
  /** A checked Idempotency-Key (checkIdempotencyKey of @skiptrace/core). */
  key?: string;
}

/** What an upload found and did, for its answer (absent when an Idempotency-Key replays an earlier batch). */
export type UploadReport = Pick<IngestResult, 'columns' | 'mapping' | 'mappingSource' | 'warnings' | 'info'>;

export interface SubmitDeps {
  db: Database;
  bus: MessageBus;
  config: BatchesConfig;
  logger?: Logger;
}

/** The identity's part of an upload's request hash: nothing when there is none (hashes of uploads before it hold). */
const identityText = (identity: BatchIdentity | undefined) =>
  identity && Object.values(identity).some((v) => v !== undefined) ? `${JSON.stringify(identity)}\n` : '';

/**
 * Stores the upload as a batch and queues its chunks; returns the batch (or, for a repeated
 * Idempotency-Key with the same body, the batch the key created). On a failure the rest of
 * the body is drained, not left unread, so that the answer reaches the client.
 */
export async function submitBatch(deps: SubmitDeps, upload: Upload): Promise<{ row: BatchRow; report?: UploadReport }> {
  const { db, bus, config, logger } = deps;
  const { accountId, key } = upload;
  const hasher = createHash('sha256').update(
    `${upload.format}\n${JSON.stringify(upload.map)}\n${JSON.stringify(upload.read ?? {})}\n${identityText(upload.identity)}`,
  );
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hasher.update(chunk);
      done(null, chunk);
    },
  });
  upload.body.pipe(tap);
  /** The batch an earlier upload with this key created; undefined when it no longer exists. */
  const replay = async (hash: string): Promise<BatchRow | undefined> => {
    const earlier = await batchIdempotency.find(db, accountId, key!, hash);
    return earlier === undefined ? undefined : findBatch(db, accountId, earlier);
  };
  /** Publishes claimed chunks; false when the broker failed (the chunks are stored: the batch sweep publishes them). */
  const publishOrLeave = async (batchId: string, chunks: ChunkRef[]): Promise<boolean> => {
    try {
      await publishChunks(bus, accountId, batchId, chunks);
      return true;
    } catch (err) {
      logger?.warn({ err, batchId }, 'chunk publish failed; left to the sweep');
      return false;
    }
  };
  try {
    if (key && (await batchIdempotency.inUse(db, accountId, key))) {
      // Only the hash decides now: read the body without storing it.
      tap.pipe(new PassThrough()).resume();
      await new Promise<void>((resolve, reject) => tap.on('end', resolve).on('error', reject));
      const row = await replay(hasher.digest('hex'));
      if (row) return { row };
      throw new ApiError('conflict', 'the batch this Idempotency-Key created no longer exists');
    }
    // Tracing starts with the first stored pages, not after the last (openStoredChunks).
    let unchunked = 1;
    const result = await ingest({
      db,
      accountId,
      clientId: upload.clientId,
      format: upload.format,
      body: decompressed(tap, upload.contentEncoding, config),
      map: upload.map,
      read: upload.read,
      identity: upload.identity,
      savedMapping: async (columns) => (await columnMappings.find(db, accountId, columns))?.map,
      config,
      logger,
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
    if (key && !(await batchIdempotency.remember(db, accountId, key, hash, result.batchId))) {
      // A concurrent upload with the same key won: drop ours, answer with the winner's.
      await deleteBatchData(db, result.batchId);
      const row = await replay(hash);
      if (row) return { row };
      throw new ApiError('conflict', 'a concurrent upload with this Idempotency-Key failed');
    }
    if (upload.saveMapping) await columnMappings.save(db, accountId, result.columns, result.mapping);
    const chunks = await queueBatch(db, result.batchId, config.chunkSize, config.chunksInFlight, unchunked);
    if (await publishOrLeave(result.batchId, chunks)) {
      // Chunks traced while the upload went on may have been the last ones.
      await completeIfDone(db, bus, result.batchId).catch((err: unknown) =>
        logger?.warn({ err, batchId: result.batchId }, 'batch completion failed; left to the sweep'),
      );
    }
    const { columns, mapping, mappingSource, warnings, info } = result;
    return {
      row: (await findBatch(db, accountId, result.batchId))!,
      report: { columns, mapping, mappingSource, warnings, info },
    };
  } catch (err) {
    // Answer now, and let the rest of the body drain rather than reset the connection.
    upload.body.unpipe(tap);
    upload.body.resume();
    throw err;
  }
}

/** Rows a preview shows. */
export const PREVIEW_ROWS = 10;

export interface Preview {
  format: Format;
  columns: string[];
  rows: string[][];
  mapping: ColumnMap;
  mappingSource: 'request' | 'saved' | 'aliases';
  warnings: MappingWarning[];
  info: SourceInfo;
}

/**
 * The start of a file read exactly as its upload would be (the same decoder, delimiter
 * sniffing, sheet choice and mapping, saved mappings included), without storing anything:
 * the console's and the CLI's preview. `partial`: the body is only the file's first bytes
 * (the console sends 256 KiB of a large text file), so a row or character cut off at the
 * end is dropped rather than refused.
 */
export async function previewUpload(
  deps: Pick<SubmitDeps, 'db' | 'config'>,
  upload: Omit<Upload, 'key'> & { partial?: boolean },
): Promise<Preview> {
  const { db, config } = deps;
  const source = sourceFor(
    upload.format,
    decompressed(upload.body, upload.contentEncoding, config),
    config,
    upload.read,
  );
  const rows: string[][] = [];
  let ended = false;
  try {
    for await (const item of source.items) {
      if ('cells' in item)
        rows.push(
          item.cells.map((c) =>
            c === null || c === undefined ? '' : typeof c === 'object' ? JSON.stringify(c) : String(c),
          ),
        );
      if (rows.length > PREVIEW_ROWS) break;
    }
    ended = rows.length <= PREVIEW_ROWS;
  } catch (err) {
    if (!upload.partial || rows.length === 0) throw err;
  } finally {
    upload.body.resume();
  }
  // A head of the file ends wherever the bytes were cut: its last row may be a part of one.
  if (upload.partial && ended) rows.pop();
  if (rows.length === 0 && (!upload.partial || source.columns.length === 0)) throw emptyUpload(source.columns);
  let map = upload.map;
  let mappingSource: Preview['mappingSource'] = Object.keys(map).length > 0 ? 'request' : 'aliases';
  if (mappingSource === 'aliases') {
    const saved = await columnMappings.find(db, upload.accountId, source.columns);
    if (saved) {
      map = saved.map;
      mappingSource = 'saved';
    }
  }
  const resolution = resolveColumns(source.columns, map);
  const mapping = mappingOf(source.columns, resolution);
  if (upload.saveMapping) await columnMappings.save(db, upload.accountId, source.columns, mapping);
  return {
    format: upload.format,
    columns: [...source.columns],
    rows: rows.slice(0, PREVIEW_ROWS),
    mapping,
    mappingSource,
    warnings: mappingWarnings(source.columns, resolution),
    info: source.info,
  };
}
