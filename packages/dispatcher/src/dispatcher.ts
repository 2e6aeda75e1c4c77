import type { Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type { KeyValueStore } from '@skiptrace/kv';
import type { Consumer, MessageBus } from '@skiptrace/messaging';
import type { WebhookConfig } from '@skiptrace/webhooks';
import { systemClock, type Clock } from '@skiptrace/webhooks';
import { createAttemptWriter } from '@skiptrace/webhooks';
import { createDeliveryWorker } from './delivery-worker.ts';
import { createFanout } from './fanout.ts';
import { addressPolicy, createHttpTransport, type Sender } from '@skiptrace/webhooks';
import { pendingPage } from '@skiptrace/webhooks';
import { scheduleMessage } from '@skiptrace/webhooks';

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
  /** Pending messages put back on the schedule by the last rebuild (at start, or after a loss). */
  readonly reconciled: number;
  /** Rebuilds of the schedule since start() because the key-value store had lost it. */
  readonly rebuilds: number;
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
      await scheduleMessage(kv, config.scheduleName, row.id, row.endpoint_id, due);
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
    : createHttpTransport({ timeoutMs: config.timeoutMs, allowPrivate: addressPolicy(config) });
  const send = deps.send ?? transport!.send;
  const record = createAttemptWriter(db);
  const worker = createDeliveryWorker({ db, kv, config, clock, logger, send, record, random: deps.random });
  const handleEvent = createFanout({ db, kv, config, clock, onScheduled: () => worker.nudge() });
  let consumer: Consumer | undefined;
  let reconciled = 0;
  let rebuilds = 0;
  let state: 'idle' | 'running' | 'stopped' = 'idle';
  let checkTimer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | undefined;
  // Written after every rebuild and never expires: when it is gone, so is the schedule
  // next to it, and the dispatcher puts the pending messages back from PostgreSQL.
  const marker = `${config.scheduleName}:rebuilt-at`;

  async function rebuild(): Promise<void> {
    reconciled = await reconcileSchedule(db, kv, config, clock.now());
    await kv.set(marker, new Date(clock.now()).toISOString());
  }

  async function checkSchedule(): Promise<void> {
    try {
      if ((await kv.get(marker)) !== null) return;
      logger.warn({}, 'key-value store lost the delivery schedule; rebuilding it from the store');
      await rebuild();
      rebuilds += 1;
      logger.info({ reconciled }, 'delivery schedule rebuilt');
      worker.nudge();
    } catch (err) {
      logger.warn({ err }, 'delivery schedule check failed; will retry');
    }
  }

  function scheduleCheck(): void {
    checkTimer = setTimeout(() => {
      checking = checkSchedule().finally(() => {
        checking = undefined;
        if (state === 'running') scheduleCheck();
      });
    }, config.scheduleCheckMs);
  }

  return {
    get reconciled() {
      return reconciled;
    },
    get rebuilds() {
      return rebuilds;
    },
    async start() {
      if (state !== 'idle') throw new Error(`dispatcher cannot start when ${state}`);
      state = 'running';
      await rebuild();
      logger.info({ reconciled }, 'delivery schedule reconciled from the store');
      scheduleCheck();
      worker.start();
      consumer = await bus.consume('webhooks.events', { prefetch: deps.prefetch ?? 64 }, async (delivery) => {
        await handleEvent(delivery);
      });
    },
    async stop(options = {}) {
      if (state === 'stopped') return;
      state = 'stopped';
      clearTimeout(checkTimer);
      await checking;
      await consumer?.cancel();
      await worker.stop(options);
      await transport?.close();
      logger.info({ abort: options.abort ?? false }, 'dispatcher stopped');
    },
  };
}

/** The dispatcher's composition, called by its main.ts and by the one-process system. */
export function wireDispatcher(deps: Omit<DispatcherDeps, 'config'>, config: WebhookConfig): Dispatcher {
  return createDispatcher({ ...deps, config });
}
