export * from './property.repository.ts';
export * from './idempotency.ts';
