/**
 * @skiptrace/dispatcher: the webhook subscription API (mounted by the gateway) and the
 * dispatcher that turns bus events into signed, retried deliveries.
 */
export { createWebhooksRouter } from './webhooks.router.ts';
export type { WebhooksRouterDeps } from './webhooks.router.ts';
export { createDispatcher, reconcileSchedule, wireDispatcher } from './dispatcher.ts';
export type { Dispatcher, DispatcherDeps } from './dispatcher.ts';
export { dispatcherEnv, webhookConfig, webhookConfigFrom, webhookEnv } from './config.ts';
export type { DispatcherEnv, WebhookConfig } from './config.ts';
export { systemClock } from './delivery-attempt.ts';
export type { Clock } from './delivery-attempt.ts';
export { createHttpTransport, DeliveryTimeoutError, RESPONSE_BODY_MAX } from './http-sender.ts';
export type { OutgoingWebhook, Sender, Transport, WebhookResponse } from './http-sender.ts';
export { addressPolicy, ForbiddenAddressError, guardedLookup, vetHost, type AddressPolicy } from './ssrf-guard.ts';
export { isPublicAddress } from './ip-policy.ts';
export { MAX_ATTEMPTS, RETRY_DELAYS_MS, nextRetryDelay, parseRetryAfter } from './retry-policy.ts';
export { generateSecret, sign } from './signing.ts';
