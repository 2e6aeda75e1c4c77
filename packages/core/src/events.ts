import {
  PACKED_MESSAGES,
  type Message,
  type MessageName,
  type PropertyResponse,
  type StoredProperty,
} from '@skiptrace/contracts';
import type { MessageBus } from '@skiptrace/messaging';

/**
 * Publishes a catalogue message with a typed payload. The message id is stable per
 * subject (e.g. `skiptrace.completed:42`), so a redelivered job that publishes again
 * is recognised by the dispatcher as the same event.
 */
export function publishMessage<N extends MessageName>(
  bus: MessageBus,
  name: N,
  payload: Message<N>,
  messageId: string,
): Promise<void> {
  return bus.publish(name, payload, { messageId, pack: PACKED_MESSAGES.has(name) });
}

export function publishPlantAdded(bus: MessageBus, accountId: string, data: StoredProperty): Promise<void> {
  return publishMessage(
    bus,
    'event.plant.added',
    { accountId, occurredAt: new Date().toISOString(), data },
    `plant.added:${data.id}`,
  );
}

export function publishTraceCompleted(bus: MessageBus, accountId: string, data: PropertyResponse): Promise<void> {
  return publishMessage(
    bus,
    'event.skiptrace.completed',
    { accountId, occurredAt: new Date().toISOString(), data },
    `skiptrace.completed:${data.id}`,
  );
}
