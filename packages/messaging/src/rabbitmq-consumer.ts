/**
 * One consume() registration. It survives reconnects: on every new session it opens its
 * own channel (prefetch is per channel consumer), re-declares its queue, bindings and
 * dead-letter queue, and consumes again. Acks go on the channel that delivered; after
 * that channel is gone the broker has already requeued the message, so we skip the ack.
 */
import type { Channel, ConsumeMessage } from 'amqplib';
import type { Consumer, Handler } from './bus.port.ts';
import { errorMessage } from './bus-logger.ts';
import type { BusLogger } from './bus-logger.ts';
import type { ResolvedConsumeOptions } from './consume-options.ts';
import { createAcker, type Acker } from './rabbitmq-acker.ts';
import {
  deadLetterAlone,
  deadLetterProperties,
  decodeDelivery,
  decodePack,
  dlqName,
  encodeBody,
  isPack,
  queueArguments,
  retryAlone,
  type Incoming,
} from './rabbitmq-codec.ts';
import type { RabbitConnection, Session } from './rabbitmq-connection.ts';
import { createReplyPacker, type ReplyPacker } from './rabbitmq-packer.ts';
import type { Publisher } from './rabbitmq-publisher.ts';
import { createSlots } from './slots.ts';

export interface ConsumerContext {
  connection: RabbitConnection;
  publisher: Publisher;
  exchange: string;
  logger: BusLogger;
  /** How long consume() waits for a connection, in milliseconds. */
  connectTimeoutMs: number;
  /** Re-attach backoff after a channel-level failure, in milliseconds. */
  retryDelayMs: { initial: number; max: number };
}

interface Failure {
  incoming: Incoming;
  reason: string;
}

export async function startConsumer(
  ctx: ConsumerContext,
  options: ResolvedConsumeOptions,
  handler: Handler,
): Promise<Consumer> {
  const { connection, logger } = ctx;
  const { queue, maxAttempts } = options;
  const inFlight = new Set<Promise<void>>();
  const open = new WeakSet<Channel>();
  const ackers = new WeakMap<Channel, Acker>();
  const replies = new WeakMap<Channel, ReplyPacker>();
  // Handlers running at once: the broker's prefetch bounds messages, and a pack is one.
  const slots = createSlots(options.prefetch);
  let active: { channel: Channel; tag: string } | null = null;
  let cancelled = false;
  let retryTimer: NodeJS.Timeout | undefined;

  async function attach(session: Session): Promise<void> {
    const channel = await session.model.createChannel();
    open.add(channel);
    ackers.set(
      channel,
      createAcker(channel, () => open.has(channel)),
    );
    replies.set(
      channel,
      createReplyPacker(channel, () => open.has(channel)),
    );
    channel.on('error', (err: Error) => logger.warn({ queue, err: errorMessage(err) }, 'consumer channel error'));
    channel.on('close', () => {
      open.delete(channel);
      if (active?.channel !== channel) return;
      active = null;
      if (!cancelled && !session.closed) scheduleAttach(session, 1);
    });
    try {
      await channel.assertExchange(ctx.exchange, 'topic', { durable: true });
      await channel.assertQueue(dlqName(queue), { durable: true });
      await channel.assertQueue(queue, queueArguments(options));
      for (const topic of options.topics) await channel.bindQueue(queue, ctx.exchange, topic);
      await channel.prefetch(options.prefetch);
      const { consumerTag } = await channel.consume(queue, (message) => onMessage(channel, message), { noAck: false });
      active = { channel, tag: consumerTag };
    } catch (err) {
      if (open.has(channel)) await channel.close().catch(() => {});
      throw err;
    }
    if (cancelled) await detach();
  }

  // Failures here are channel-level (e.g. the queue is still recovering after a restart).
  function scheduleAttach(session: Session, attempt: number): void {
    const delay = Math.min(ctx.retryDelayMs.max, ctx.retryDelayMs.initial * 2 ** (attempt - 1));
    retryTimer = setTimeout(() => {
      if (cancelled || session.closed) return;
      attach(session).catch((err: unknown) => {
        logger.warn({ queue, attempt, err: errorMessage(err) }, 'consumer re-attach failed');
        scheduleAttach(session, attempt + 1);
      });
    }, delay);
  }

  function onMessage(channel: Channel, message: ConsumeMessage | null): void {
    if (message === null) {
      // The broker cancelled us (queue deleted): declare it again and resume.
      logger.warn({ queue }, 'consumer cancelled by broker; re-attaching');
      const session = connection.current();
      if (active?.channel === channel) active = null;
      channel.close().catch(() => {});
      if (session && !cancelled) scheduleAttach(session, 1);
      return;
    }
    ackers.get(channel)?.received(message.fields.deliveryTag);
    const work = handle(channel, message).finally(() => inFlight.delete(work));
    inFlight.add(work);
  }

  function settle(channel: Channel, action: (channel: Channel) => void): void {
    if (open.has(channel)) action(channel);
  }

  const ack = (channel: Channel, message: ConsumeMessage) => ackers.get(channel)?.ack(message.fields.deliveryTag);

  function requeue(channel: Channel, message: ConsumeMessage): void {
    ackers.get(channel)?.settled(message.fields.deliveryTag);
    settle(channel, (ch) => ch.nack(message, false, true));
  }

  async function handle(channel: Channel, message: ConsumeMessage): Promise<void> {
    const packed = isPack(message);
    let incoming: Incoming[];
    try {
      incoming = packed ? decodePack(message) : [decodeDelivery(message)];
    } catch (err) {
      // Not JSON (or not a pack): no number of attempts will fix it.
      await deadLetter(channel, message, `undecodable payload: ${errorMessage(err)}`, 1);
      return;
    }
    const failures = (await Promise.all(incoming.map((one) => run(channel, one)))).filter((f) => f !== undefined);
    if (failures.length === 0) return ack(channel, message);
    if (packed) return settlePackFailures(channel, message, failures);
    const [{ incoming: one, reason }] = failures as [Failure];
    if (one.delivery.attempt >= maxAttempts) return deadLetter(channel, message, reason, one.delivery.attempt);
    logger.warn(
      { queue, messageId: one.delivery.messageId, attempt: one.delivery.attempt, err: reason },
      'handler failed; requeueing',
    );
    requeue(channel, message);
  }

  /** Runs the handler for one message; resolves to its failure, if it failed. */
  async function run(channel: Channel, incoming: Incoming): Promise<Failure | undefined> {
    const { delivery, replyTo, correlationId } = incoming;
    let replied = false;
    delivery.reply = (value) => {
      if (replied || !replyTo || !correlationId) return;
      replied = true;
      replies.get(channel)?.reply(replyTo, correlationId, encodeBody(value));
    };
    await slots.acquire();
    try {
      delivery.reply(await handler(delivery));
      return undefined;
    } catch (err) {
      return { incoming, reason: errorMessage(err) };
    } finally {
      slots.release();
    }
  }

  /**
   * Only the messages of a pack that failed are tried again: each goes back to the queue
   * alone (or to the dead-letter queue on its last attempt), and once the broker has
   * confirmed those the pack is acked. If that fails the whole pack is redelivered; the
   * messages that had succeeded run again, which idempotent handlers allow.
   */
  async function settlePackFailures(channel: Channel, message: ConsumeMessage, failures: Failure[]): Promise<void> {
    try {
      await Promise.all(
        failures.map(({ incoming, reason }) => {
          const { delivery } = incoming;
          const last = delivery.attempt >= maxAttempts;
          logger[last ? 'error' : 'warn'](
            { queue, messageId: delivery.messageId, attempt: delivery.attempt, err: reason },
            last ? 'handler failed; dead-lettering' : 'handler failed; retrying it alone',
          );
          const { content, properties } = last ? deadLetterAlone(delivery, reason) : retryAlone(incoming);
          return ctx.publisher.publish('', last ? dlqName(queue) : queue, content, properties);
        }),
      );
      ack(channel, message);
    } catch (err) {
      logger.error({ queue, err: errorMessage(err) }, 'could not hand failed messages back; redelivering the pack');
      requeue(channel, message);
    }
  }

  async function deadLetter(channel: Channel, message: ConsumeMessage, reason: string, attempt: number): Promise<void> {
    logger.error(
      { queue, messageId: message.properties.messageId, attempt, err: reason },
      'handler failed; dead-lettering',
    );
    try {
      await ctx.publisher.publish('', dlqName(queue), message.content, deadLetterProperties(message, reason));
      ack(channel, message);
    } catch (err) {
      // Requeue instead: the queue's delivery limit dead-letters it (reason `delivery_limit`).
      logger.error({ queue, err: errorMessage(err) }, 'dead-letter publish failed; leaving it to the broker');
      requeue(channel, message);
    }
  }

  async function detach(): Promise<void> {
    const current = active;
    if (current && open.has(current.channel)) await current.channel.cancel(current.tag).catch(() => {});
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    active = null;
    if (current) replies.get(current.channel)?.flush();
    if (current) ackers.get(current.channel)?.flush();
    if (current && open.has(current.channel)) await current.channel.close().catch(() => {});
  }

  function onSession(session: Session): void {
    clearTimeout(retryTimer);
    attach(session).catch((err: unknown) => {
      logger.warn({ queue, err: errorMessage(err) }, 'consumer attach failed');
      scheduleAttach(session, 1);
    });
  }

  // The first attach reports its error to the caller (say, the queue exists with other
  // arguments); only a connection lost in the middle of it is worth another try.
  const deadline = Date.now() + ctx.connectTimeoutMs;
  let session = await connection.waitForSession(ctx.connectTimeoutMs);
  for (;;) {
    try {
      await attach(session);
      break;
    } catch (err) {
      if (!session.closed || Date.now() >= deadline) throw err;
      session = await connection.waitForSession(deadline - Date.now());
    }
  }
  const unsubscribe = connection.onSession(onSession);
  const now = connection.current();
  if (now && now !== session) onSession(now);

  return {
    async cancel() {
      if (cancelled) return;
      cancelled = true;
      unsubscribe();
      clearTimeout(retryTimer);
      await detach();
    },
  };
}
