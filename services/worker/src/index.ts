export { createWorkerService, type WorkerConfig, type WorkerDeps } from './worker.service.ts';
export { workerEnvSchema } from './config.ts';
