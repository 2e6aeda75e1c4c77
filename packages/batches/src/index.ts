/**
 * @skiptrace/batches: high-volume batch skip tracing. The gateway mounts
 * createBatchesRouter; workers run startBatchWorker (or consume with createBatchChunkHandler).
 */
export { createBatchesRouter } from './batches.router.ts';
export type { BatchesRouterDeps } from './batches.router.ts';
export { createBatchChunkHandler, startBatchWorker } from './chunk.handler.ts';
export type { BatchChunkHandlerDeps, BatchWorker, BatchWorkerDeps } from './chunk.handler.ts';
export {
  BatchesConfig,
  BatchWorkerConfig,
  batchesApiEnv,
  batchWorkerEnv,
  batchesApiConfigFrom,
  batchWorkerConfigFrom,
} from './config.ts';
export { sweepBatches } from './dispatch.ts';
export { createBatchRows } from './batch-rows.ts';
export type { SweepOptions, SweepReport } from './dispatch.ts';
