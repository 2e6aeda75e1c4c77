import type { PropertyResponse, StoredProperty } from '@skiptrace/contracts';
import type { MessageBus } from '@skiptrace/messaging';

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

export function publishTraceCompleted(bus: MessageBus, accountId: string, data: PropertyResponse): Promise<void> {
  return bus.publish(
    'event.skiptrace.completed',
    { accountId, occurredAt: new Date().toISOString(), data },
    { messageId: `skiptrace.completed:${data.id}` },
  );
}
