/**
 * @skiptrace/webhooks: webhook subscriptions and deliveries — the subscription API (mounted
 * by the gateway), the endpoint, message and delivery-log repositories, Standard Webhooks
 * signing, the SSRF guard, one delivery attempt, the retry policy and schedule, and the
 * webhook settings. services/dispatcher composes these into the process that delivers.
 */
export * from './attempt-writer.ts';
export * from './config.ts';
export * from './delivery-admin.repository.ts';
export * from './delivery-attempt.ts';
export * from './endpoint.repository.ts';
export * from './http-sender.ts';
export * from './ip-policy.ts';
export * from './message.repository.ts';
export * from './retry-policy.ts';
export * from './schedule.ts';
export * from './signing.ts';
export * from './ssrf-guard.ts';
export * from './webhooks.router.ts';
