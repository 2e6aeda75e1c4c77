/**
 * Publisher confirms with a bounded window. A publish resolves only on the broker's ack,
 * so a resolved publish is durable (quorum queues ack after the write is committed).
 * Back-pressure comes in two layers: at most `window` messages are sent and unconfirmed
 * at once (amqplib would otherwise buffer without limit), and after channel.publish()
 * returns false nothing more is sent until 'drain' (or the channel closes, so a dropped
 * connection cannot wedge the waiters).
 *
 * When the connection drops before the ack, or the broker nacks, the publish is sent
 * again on the next session with the same messageId until `publishTimeoutMs` has passed
 * since the call, then rejected with BusUnavailableError; so is a publish whose confirm
 * has not come by then (a broker blocking publishers under a memory or disk alarm). So a message may arrive twice
 * (consumers dedupe on messageId) but a resolved publish is never lost.
 */
import type { Options } from 'amqplib';
import { BusUnavailableError } from './bus.port.ts';
import type { BusLogger } from './bus-logger.ts';
import { createSlots } from './slots.ts';
import type { RabbitConnection, Session } from './rabbitmq-connection.ts';

export interface Publisher {
  publish(exchange: string, routingKey: string, content: Buffer, properties: Options.Publish): Promise<void>;
  /** Messages sent and not yet confirmed (never above the window). */
  inFlight(): number;
  /** Resolves once every publish started so far has settled. */
  settled(): Promise<void>;
}

export interface PublisherOptions {
  connection: RabbitConnection;
  window: number;
  publishTimeoutMs: number;
  logger: BusLogger;
}

type Outcome = { ok: true } | { ok: false; error: unknown };

/** Pause before resending after a broker nack, so a refusing queue is not hammered. */
const NACK_PAUSE_MS = 100;

/** True when `promise` settles before `deadline` (epoch ms), false when the deadline comes first. */
async function settlesBefore(promise: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), deadline - Date.now())));
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function createPublisher({ connection, window, publishTimeoutMs, logger }: PublisherOptions): Publisher {
  const outstanding = new Set<Promise<void>>();
  const drains = new WeakMap<Session, Promise<void>>();
  const slots = createSlots(window);

  function waitForDrain(session: Session): Promise<void> {
    let drained = drains.get(session);
    if (!drained) {
      logger.debug({ session: session.id }, 'channel buffer full; holding publishes until drain');
      const { channel } = session;
      drained = new Promise<void>((resolve) => {
        const done = (): void => {
          channel.off('drain', done);
          channel.off('close', done);
          drains.delete(session);
          resolve();
        };
        channel.on('drain', done);
        channel.on('close', done);
      });
      drains.set(session, drained);
    }
    return drained;
  }

  async function sendOnce(
    session: Session,
    exchange: string,
    key: string,
    content: Buffer,
    properties: Options.Publish,
    deadline: number,
  ): Promise<Outcome> {
    await slots.acquire();
    let timer: NodeJS.Timeout | undefined;
    try {
      const drained = drains.get(session);
      if (drained && !(await settlesBefore(drained, deadline))) {
        return { ok: false, error: new Error('the channel stayed full (broker not reading)') };
      }
      if (session.closed) return { ok: false, error: new Error('connection lost before sending') };
      return await new Promise<Outcome>((resolve, reject) => {
        // A broker under a resource alarm blocks publishers without closing anything, so
        // the confirm may never come: give up at the deadline rather than wait forever.
        // The message may still arrive later; consumers dedupe on messageId.
        timer = setTimeout(
          () => resolve({ ok: false, error: new Error('no confirm from the broker') }),
          Math.max(0, deadline - Date.now()),
        );
        try {
          const flowing = session.channel.publish(exchange, key, content, properties, (err: unknown) => {
            resolve(err ? { ok: false, error: err } : { ok: true });
          });
          if (!flowing) void waitForDrain(session);
        } catch (err) {
          // IllegalOperationError: the channel closed under us, so try the next session.
          // Anything else (a RangeError for oversized headers) will not get better.
          if (err instanceof Error && err.name === 'IllegalOperationError') resolve({ ok: false, error: err });
          else reject(err);
        }
      });
    } finally {
      clearTimeout(timer);
      slots.release();
    }
  }

  async function publish(exchange: string, key: string, content: Buffer, properties: Options.Publish): Promise<void> {
    const deadline = Date.now() + publishTimeoutMs;
    let lastError: unknown;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new BusUnavailableError(`publish to ${key} not confirmed within ${publishTimeoutMs} ms`, {
          cause: lastError,
        });
      }
      const session = await connection.waitForSession(remaining);
      const outcome = await sendOnce(session, exchange, key, content, properties, deadline);
      if (outcome.ok) return;
      lastError = outcome.error;
      if (!session.closed) await new Promise((resolve) => setTimeout(resolve, NACK_PAUSE_MS));
    }
  }

  return {
    publish(exchange, key, content, properties) {
      const done = publish(exchange, key, content, properties);
      const tracked = done.then(
        () => {},
        () => {},
      );
      outstanding.add(tracked);
      void tracked.finally(() => outstanding.delete(tracked));
      return done;
    },
    inFlight: () => slots.used(),
    async settled() {
      while (outstanding.size > 0) await Promise.all([...outstanding]);
    },
  };
}
