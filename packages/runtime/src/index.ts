export * from './config.ts';
export * from './logger.ts';
export * from './lifecycle.ts';
export * from './api-error.ts';
export * from './http.ts';
export * from './health.ts';
export * from './batcher.ts';
export * from './route.ts';
