/**
 * @skiptrace/dispatcher: the process that turns bus events into signed, retried webhook
 * deliveries, composed from @skiptrace/webhooks (which also holds the subscription API the
 * gateway mounts).
 */
export { createDispatcher, reconcileSchedule, wireDispatcher } from './dispatcher.ts';
export type { Dispatcher, DispatcherDeps } from './dispatcher.ts';
