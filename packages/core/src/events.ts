import type { PropertyResponse, StoredProperty } from '@skiptrace/contracts';
import { jsonObject, type JsonText, type MessageBus } from '@skiptrace/messaging';

/*
 * The worker's events. Each message id is stable per subject (e.g. `skiptrace.completed:42`),
 * so a redelivered job that publishes again is recognised by the dispatcher as the same event.
 */

export function publishPlantAdded(bus: MessageBus, accountId: string, data: StoredProperty): Promise<void> {
  return bus.publish(
    'event.plant.added',
    { accountId, occurredAt: new Date().toISOString(), data },
    { messageId: `plant.added:${data.id}` },
  );
}

/**
 * `encoded`, when given, is `data` already encoded (the worker's reply): the event then
 * carries that text, byte for byte what encoding `data` again would give.
 */
export function publishTraceCompleted(
  bus: MessageBus,
  accountId: string,
  data: PropertyResponse,
  encoded?: JsonText<PropertyResponse>,
): Promise<void> {
  const occurredAt = new Date().toISOString();
  return bus.publish(
    'event.skiptrace.completed',
    encoded ? jsonObject({ accountId, occurredAt, data: encoded }) : { accountId, occurredAt, data },
    { messageId: `skiptrace.completed:${data.id}` },
  );
}
