export * from './property.repository.ts';
export * from './batch-rows.port.ts';
export * from './idempotency.ts';
export * from './events.ts';
export * from './recovery-sweep.ts';
export * from './trace-engine.ts';
export * from './contact-trace-engine.ts';
