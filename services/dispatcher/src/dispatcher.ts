import type { Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type { KeyValueStore } from '@skiptrace/kv';
import type { Consumer, MessageBus } from '@skiptrace/messaging';
import { QUEUES } from '@skiptrace/contracts';
import type { WebhookConfig } from './config.ts';
import { systemClock, type Clock } from './delivery-attempt.ts';
import { createAttemptWriter } from './attempt-writer.ts';
import { createDeliveryWorker } from './delivery-worker.ts';
import { createFanout } from './fanout.ts';
import { createHttpTransport, type Sender } from './http-sender.ts';
import { member, pendingPage } from './message.repository.ts';

export interface DispatcherDeps {
  db: Database;
  bus: MessageBus;
  kv: KeyValueStore;
  config: WebhookConfig;
  logger: Logger;
  /** Replaces the HTTP transport (the default is undici with the SSRF guard). */
  send?: Sender;
  clock?: Clock;
  /** Jitter source for retry delays, in [0, 1). */
  random?: () => number;
  /** Bus prefetch: events handled concurrently (default 64). */
  prefetch?: number;
}

export interface Dispatcher {
  /** Rebuilds the schedule from PostgreSQL, starts delivering, then starts consuming events. */
  start(): Promise<void>;
  /** Stops consuming, then finishes (or with abort: drops) in-flight deliveries. Idempotent. */
  stop(options?: { abort?: boolean }): Promise<void>;
  /** Pending messages put back on the schedule by the last start(). */
  readonly reconciled: number;
}

const RECONCILE_PAGE = 1000;

/**
 * Puts every pending message back on the key-value schedule at the time PostgreSQL
 * says it is due (never earlier than a live lease). Safe to run while other
 * dispatchers work: the row lease, not the schedule, decides who delivers.
 */
export async function reconcileSchedule(db: Database, kv: KeyValueStore, config: WebhookConfig, nowMs: number) {
  let after = '';
  let count = 0;
  for (;;) {
    const rows = await pendingPage(db, after, RECONCILE_PAGE);
    for (const row of rows) {
      const due = Math.max(row.next_attempt_at?.getTime() ?? nowMs, row.lease_until?.getTime() ?? 0);
      await kv.schedule(config.scheduleName, member(row.id, row.endpoint_id), due);
    }
    count += rows.length;
    if (rows.length < RECONCILE_PAGE) return count;
    after = rows[rows.length - 1]!.id;
  }
}

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const { db, bus, kv, config } = deps;
  const logger = deps.logger.child({ scope: 'webhook-dispatcher' });
  const clock = deps.clock ?? systemClock;
  const transport = deps.send
    ? undefined
    : createHttpTransport({ timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivate });
  const send = deps.send ?? transport!.send;
  const record = createAttemptWriter(db);
  const worker = createDeliveryWorker({ db, kv, config, clock, logger, send, record, random: deps.random });
  const handleEvent = createFanout({ db, kv, config, clock, onScheduled: () => worker.nudge() });
  let consumer: Consumer | undefined;
  let reconciled = 0;
  let state: 'idle' | 'running' | 'stopped' = 'idle';

  return {
    get reconciled() {
      return reconciled;
    },
    async start() {
      if (state !== 'idle') throw new Error(`dispatcher cannot start when ${state}`);
      state = 'running';
      reconciled = await reconcileSchedule(db, kv, config, clock.now());
      logger.info({ reconciled }, 'delivery schedule reconciled from the store');
      worker.start();
      consumer = await bus.consume(
        { queue: QUEUES.webhookEvents.name, topics: [...QUEUES.webhookEvents.topics], prefetch: deps.prefetch ?? 64 },
        (delivery) => handleEvent(delivery),
      );
    },
    async stop(options = {}) {
      if (state === 'stopped') return;
      state = 'stopped';
      await consumer?.cancel();
      await worker.stop(options);
      await transport?.close();
      logger.info({ abort: options.abort ?? false }, 'dispatcher stopped');
    },
  };
}
