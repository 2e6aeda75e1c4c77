export { workerEnv, workerProcessEnv, workerConfigFrom, type WorkerEnv, type WorkerProcessConfig } from './config.ts';
export { wireBatchChunks, wireWorker, type WiredWorker, type WorkerWiringDeps } from './wiring.ts';
