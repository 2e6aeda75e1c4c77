import { z } from 'zod';
import { envInt, JSON_MAX_KEYS } from '@skiptrace/runtime';

const int = envInt;

/**
 * Milliseconds of synchronous work between two turns of the event loop while a batch is
 * uploaded (parsing, validation) or exported (rendering): both run on the gateway's event
 * loop, which synchronous requests share (eventLoopSlices in @skiptrace/runtime). Measured
 * at 1,000,000 rows (docs/benchmarks-history.md): 0.5 ms gave sync p50/p99 21/75–82 ms during the
 * export against 28/155 and 16/62 at 0.25 ms, 89–92/132–139 at 1 ms and 157/215 at 2 ms.
 */
export const SLICE_MS = 0.5;

/** Upload and export settings of the batch API (gateway side). */
export const BatchesConfig = z.object({
  /** Most input rows (accepted + rejected) in one batch; more → 413 and nothing is kept. Default 1,000,000. */
  maxRows: int(1).default(1_000_000),
  /** Rows per chunk job on the broker. Default 500. */
  chunkSize: int(1).max(10_000).default(500),
  /** Chunk jobs of one batch on the broker at once (fairness window). Default 8. */
  chunksInFlight: int(1).max(1000).default(8),
  /** Rows per COPY statement while uploading, and per page while exporting. Default 5,000. */
  pageRows: int(1).max(100_000).default(5_000),
  /** Longest single input row (CSV record, NDJSON line, JSON element), bytes; longer → 413. Default 65,536. */
  maxRowBytes: int(256).default(65_536),
  /**
   * Most columns one batch may carry: CSV header fields, or distinct keys across the rows of
   * a JSON or NDJSON upload; more → 400 naming the limit, nothing kept. Every stored row and
   * exported line has a slot per column, so this bounds both (linear in the input). At most
   * JSON_MAX_KEYS (1,000), the keys one JSON object may have, so a JSON row can fill every
   * column. Default 200.
   */
  maxColumns: int(1).max(JSON_MAX_KEYS).default(200),
  /**
   * Exports (GET …/results) one account may run at once in this process; more → 429 with
   * Retry-After. Default 2.
   */
  exportsPerAccount: int(1).default(2),
  /** Exports this process runs at once, all accounts together; more → 429 with Retry-After. Default 8. */
  exportsPerProcess: int(1).default(8),
  /**
   * Most bytes a compressed upload may expand to; more → 413 while streaming, nothing kept.
   * Default 1 GiB (a 1,000,000-row CSV is 60–120 MB).
   */
  maxInflatedBytes: int(1024).default(1024 ** 3),
  /**
   * Most bytes out per compressed byte in, judged once the upload has expanded past 1 MiB;
   * more → 413 (a decompression bomb: 6.5 KB of brotli that expands without end). CSV of
   * addresses compresses 5–15×. Default 200.
   */
  maxInflationRatio: int(2).default(200),
  /**
   * How often the process receiving an upload renews its lease on it, ms (upload-lease.ts);
   * keep it well under the worker's BATCH_UPLOAD_LEASE_MS. Default 5,000.
   */
  uploadHeartbeatMs: int(100).default(5_000),
  /** Public base path the status URL is built on. Default '/api/v1'. */
  basePath: z.string().default('/api/v1'),
});
export type BatchesConfig = z.infer<typeof BatchesConfig>;

/** Chunk worker settings. */
export const BatchWorkerConfig = z.object({
  /** Chunk jobs one worker holds unacknowledged at once. Default 4. */
  prefetch: int(1).default(4),
  /** Deliveries of a failing chunk before its rows are marked failed. Default 5. */
  maxAttempts: int(1).default(5),
  /** A stored result of the same account and address younger than this is reused, seconds; 0 disables. Default 86,400. */
  reuseTtlSeconds: int(0).default(86_400),
  /** How often the sweep looks for lost chunk jobs and uploads whose process died, ms; 0 disables. Default 30,000. */
  sweepIntervalMs: int(0).default(30_000),
  /** A chunk handed to the broker this long ago and not done is published again, ms. Default 300,000. */
  staleChunkMs: int(1).default(300_000),
  /**
   * Dispatches of one chunk job (the first publish and the sweep's republishes) before its
   * batch is failed as unable to progress. Default 5 (with staleChunkMs: about 25 minutes).
   */
  maxChunkDispatches: int(1).default(5),
  /**
   * An upload whose owner has not renewed its lease for this long died with its process: the
   * sweep fails its batch with the reason, keeping what was traced. Judged by the heartbeat,
   * never by the upload's age. With the default sweep interval an upload cut by a crash is
   * ended within 50 s. Default 20,000 (four heartbeats of BATCH_UPLOAD_HEARTBEAT_MS).
   */
  uploadLeaseMs: int(1).default(20_000),
});
export type BatchWorkerConfig = z.infer<typeof BatchWorkerConfig>;

const shape = (schema: z.ZodObject, key: string) => schema.shape[key] as z.ZodType;
const fromConfig = (schema: z.ZodObject, key: string, describe: string) =>
  shape(schema, key).describe(describe) as z.ZodType<number>;

/** Environment of the batch API, read by the gateway (and the one-process mode). */
export const batchesApiEnv = {
  BATCH_MAX_ROWS: fromConfig(BatchesConfig, 'maxRows', 'most input rows in one batch; more: 413 and nothing is kept'),
  BATCH_CHUNK_SIZE: fromConfig(BatchesConfig, 'chunkSize', 'rows per chunk job on the broker'),
  BATCH_CHUNKS_IN_FLIGHT: fromConfig(
    BatchesConfig,
    'chunksInFlight',
    'chunk jobs of one batch on the broker at once (the fairness window between batches)',
  ),
  BATCH_PAGE_ROWS: fromConfig(
    BatchesConfig,
    'pageRows',
    'rows per COPY statement while uploading, and per export page',
  ),
  BATCH_MAX_ROW_BYTES: fromConfig(
    BatchesConfig,
    'maxRowBytes',
    'longest input row (CSV record, NDJSON line, JSON element), bytes; longer: 413',
  ),
  BATCH_MAX_COLUMNS: fromConfig(
    BatchesConfig,
    'maxColumns',
    'most columns one batch may carry (CSV header fields; distinct keys across JSON/NDJSON rows), at most 1000; more: 400, nothing kept',
  ),
  BATCH_EXPORTS_PER_ACCOUNT: fromConfig(
    BatchesConfig,
    'exportsPerAccount',
    'exports one account may run at once in a gateway process; more: 429 with Retry-After',
  ),
  BATCH_EXPORTS_PER_PROCESS: fromConfig(
    BatchesConfig,
    'exportsPerProcess',
    'exports a gateway process runs at once, all accounts together; more: 429 with Retry-After',
  ),
  BATCH_MAX_INFLATED_BYTES: fromConfig(
    BatchesConfig,
    'maxInflatedBytes',
    'most bytes a compressed upload may expand to; more: 413 while streaming, nothing kept',
  ),
  BATCH_MAX_INFLATION_RATIO: fromConfig(
    BatchesConfig,
    'maxInflationRatio',
    'most bytes out per compressed byte in, judged past 1 MiB expanded; more: 413 (decompression bomb)',
  ),
  BATCH_UPLOAD_HEARTBEAT_MS: fromConfig(
    BatchesConfig,
    'uploadHeartbeatMs',
    "how often the process receiving an upload renews its lease on it, ms (well under the worker's BATCH_UPLOAD_LEASE_MS)",
  ),
};

/** Environment of the chunk worker, read by the worker (and the one-process mode). */
export const batchWorkerEnv = {
  BATCH_PREFETCH: fromConfig(BatchWorkerConfig, 'prefetch', 'chunk jobs one worker holds unacknowledged at once'),
  BATCH_MAX_ATTEMPTS: fromConfig(
    BatchWorkerConfig,
    'maxAttempts',
    'deliveries of a failing chunk before its rows are marked failed',
  ),
  BATCH_REUSE_TTL_SECONDS: fromConfig(
    BatchWorkerConfig,
    'reuseTtlSeconds',
    'a stored result of the same account and address younger than this is reused, seconds (0: never)',
  ),
  BATCH_SWEEP_INTERVAL_MS: fromConfig(
    BatchWorkerConfig,
    'sweepIntervalMs',
    'how often the sweep republishes lost chunk jobs and ends uploads whose process died, ms (0: never)',
  ),
  BATCH_STALE_CHUNK_MS: fromConfig(
    BatchWorkerConfig,
    'staleChunkMs',
    'a chunk handed to the broker this long ago and not done is published again, ms',
  ),
  BATCH_MAX_CHUNK_DISPATCHES: fromConfig(
    BatchWorkerConfig,
    'maxChunkDispatches',
    "dispatches of one chunk job (first publish and the sweep's republishes) before its batch is failed as unable to progress",
  ),
  BATCH_UPLOAD_LEASE_MS: fromConfig(
    BatchWorkerConfig,
    'uploadLeaseMs',
    'an upload whose receiving process has not renewed its lease for this long died with it: its batch is failed with the reason, traced rows kept, ms',
  ),
};

type Parsed<T extends Record<string, z.ZodType>> = { [K in keyof T]: z.infer<T[K]> };

/** The batch API's settings from its parsed environment (see batchesApiEnv). */
export function batchesApiConfigFrom(env: Parsed<typeof batchesApiEnv>): BatchesConfig {
  return BatchesConfig.parse({
    maxRows: env.BATCH_MAX_ROWS,
    chunkSize: env.BATCH_CHUNK_SIZE,
    chunksInFlight: env.BATCH_CHUNKS_IN_FLIGHT,
    pageRows: env.BATCH_PAGE_ROWS,
    maxRowBytes: env.BATCH_MAX_ROW_BYTES,
    maxColumns: env.BATCH_MAX_COLUMNS,
    exportsPerAccount: env.BATCH_EXPORTS_PER_ACCOUNT,
    exportsPerProcess: env.BATCH_EXPORTS_PER_PROCESS,
    maxInflatedBytes: env.BATCH_MAX_INFLATED_BYTES,
    maxInflationRatio: env.BATCH_MAX_INFLATION_RATIO,
    uploadHeartbeatMs: env.BATCH_UPLOAD_HEARTBEAT_MS,
  });
}

/** The chunk worker's settings from its parsed environment (see batchWorkerEnv). */
export function batchWorkerConfigFrom(env: Parsed<typeof batchWorkerEnv>): BatchWorkerConfig {
  return {
    prefetch: env.BATCH_PREFETCH,
    maxAttempts: env.BATCH_MAX_ATTEMPTS,
    reuseTtlSeconds: env.BATCH_REUSE_TTL_SECONDS,
    sweepIntervalMs: env.BATCH_SWEEP_INTERVAL_MS,
    staleChunkMs: env.BATCH_STALE_CHUNK_MS,
    uploadLeaseMs: env.BATCH_UPLOAD_LEASE_MS,
    maxChunkDispatches: env.BATCH_MAX_CHUNK_DISPATCHES,
  };
}
