import { MESSAGES } from '@skiptrace/contracts';
import type { Database } from '@skiptrace/storage';
import type { KeyValueStore } from '@skiptrace/kv';
import { InvalidMessageError, type BusDelivery } from '@skiptrace/messaging';
import { createBatcher, describeIssues, injectTraceHeaders } from '@skiptrace/runtime';
import type { WebhookConfig } from '@skiptrace/webhooks';
import type { Clock } from '@skiptrace/webhooks';
import { fanOut, type FanOutEvent } from '@skiptrace/webhooks';
import { scheduleMessage } from '@skiptrace/webhooks';

export interface FanoutDeps {
  db: Database;
  kv: KeyValueStore;
  config: WebhookConfig;
  clock: Clock;
  /** Called after scheduling, so an idle local worker picks the messages up at once. */
  onScheduled?: () => void;
}

/**
 * Handles one bus event (validated against the catalogue by the bus): stores one message per
 * matching enabled endpoint of the event's account, and schedules them for now.
 * Idempotent on the bus messageId: a redelivery stores nothing new. Throwing makes
 * the bus redeliver (and dead-letter an event that can never be handled).
 *
 * Events that arrive together (the consumer's prefetch) are stored together, so under load
 * the store sees a few statements per batch instead of per event.
 */
export function createFanout(deps: FanoutDeps) {
  const { db, kv, config, clock } = deps;

  async function storeAndSchedule(events: FanOutEvent[]): Promise<(number | Error)[]> {
    const scheduled = await fanOut(db, events);
    const now = clock.now();
    const rows = scheduled.flatMap((messages) => (messages instanceof Error ? [] : messages));
    await Promise.all(rows.map((row) => scheduleMessage(kv, config.scheduleName, row.id, row.endpoint_id, now)));
    if (rows.length > 0) deps.onScheduled?.();
    return scheduled.map((messages) => (messages instanceof Error ? messages : messages.length));
  }
  const store = createBatcher(storeAndSchedule, { maxBatch: 256, maxConcurrent: 2 });

  return async function handleEvent(delivery: BusDelivery<'webhooks.events'>): Promise<number> {
    const { topic, payload: event } = delivery;
    return store({
      eventId: delivery.messageId,
      accountId: event.accountId,
      eventType: topic.slice('event.'.length),
      // The bus checked the envelope only (deliveryCheck of MESSAGES): the data is validated
      // here, for an event somebody subscribed to, then minified once and stored: these
      // exact bytes are signed and sent on every attempt.
      payload: () => {
        const parsed = MESSAGES[topic].schema.safeParse(event);
        if (!parsed.success) throw new InvalidMessageError(`${topic} payload: ${describeIssues(parsed.error)}`);
        return JSON.stringify(parsed.data.data);
      },
      now: new Date(clock.now()),
      traceparent: injectTraceHeaders({}).traceparent,
    });
  };
}
