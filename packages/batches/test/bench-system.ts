/**
 * What test/bench/batch.bench.ts needs, re-exported from here so that it resolves
 * through this package's dependencies (the root test package does not depend on it).
 */
export { createContactTraceEngine } from '@skiptrace/core';
export { createBus } from '@skiptrace/messaging';
export { silentLogger } from '@skiptrace/runtime';
export { createPostgresDatabase } from '@skiptrace/storage';
export { startBatchWorker } from '../src/index.ts';
export { buildApp, fakeEngine } from './harness.ts';
