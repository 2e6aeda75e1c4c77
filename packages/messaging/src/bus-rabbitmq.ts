/**
 * BusTransport on RabbitMQ (amqplib): one durable topic exchange, a durable quorum queue per
 * consume() with `<queue>.dlq` beside it, publisher confirms with a bounded window, and
 * automatic reconnection that re-declares topology and re-attaches consumers.
 * Built, not started: the host owns the lifecycle and calls close(); no signal handlers.
 */
import type { Channel } from 'amqplib';
import { BusUnavailableError } from './bus.port.ts';
import type { Consumer, DeadLetter, BusTransport } from './bus.port.ts';
import { silentLogger } from './bus-logger.ts';
import type { BusLogger } from './bus-logger.ts';
import { resolveConsumeOptions } from './consume-options.ts';
import { decodeDeadLetters, dlqName, encode, encodeBody, publishProperties } from './rabbitmq-codec.ts';
import { parseReply } from './json-text.ts';
import { openRabbitConnection } from './rabbitmq-connection.ts';
import type { RabbitConnection } from './rabbitmq-connection.ts';
import { startConsumer } from './rabbitmq-consumer.ts';
import { createPacker } from './rabbitmq-packer.ts';
import { createPublisher } from './rabbitmq-publisher.ts';
import { createRequester } from './rabbitmq-requester.ts';

export interface RabbitBusOptions {
  /** amqp://user:pass@host:port/vhost */
  url: string;
  logger?: BusLogger;
  /** Topic exchange every message goes through. Default 'skiptrace'. */
  exchange?: string;
  /** Most publishes sent and not yet confirmed at once. Default 1000. */
  confirmWindow?: number;
  /** How long publish/depth/consume wait for a (re)connection, in ms. Default 5000. */
  publishTimeoutMs?: number;
  /** How long createRabbitBus waits for the first connection, in ms. Default 10000. */
  connectTimeoutMs?: number;
  /** Reconnect backoff in ms: first delay and cap, with jitter. Default 100 → 5000. */
  reconnectDelayMs?: { initial: number; max: number };
}

export interface RabbitBus extends BusTransport {
  readonly kind: 'rabbitmq';
  /** Publishes sent and not yet confirmed by the broker; never above confirmWindow. */
  inFlight(): number;
}

/** Connects (waiting up to connectTimeoutMs, else BusUnavailableError) and returns the bus. */
export async function createRabbitBus(options: RabbitBusOptions): Promise<RabbitBus> {
  const logger = options.logger ?? silentLogger;
  const exchange = options.exchange ?? 'skiptrace';
  const publishTimeoutMs = options.publishTimeoutMs ?? 5000;
  const reconnectDelayMs = options.reconnectDelayMs ?? { initial: 100, max: 5000 };
  const connection = await openRabbitConnection({ url: options.url, exchange, logger, reconnectDelayMs });
  try {
    await connection.waitForSession(options.connectTimeoutMs ?? 10_000);
  } catch (err) {
    await connection.close();
    throw err;
  }
  const publisher = createPublisher({ connection, window: options.confirmWindow ?? 1000, publishTimeoutMs, logger });
  const packer = createPacker(publisher.publish);
  const requester = createRequester(connection, exchange, logger);
  const consumers = new Set<Consumer>();
  const consumerContext = {
    connection,
    publisher,
    exchange,
    logger,
    connectTimeoutMs: publishTimeoutMs,
    retryDelayMs: reconnectDelayMs,
  };
  let closing: Promise<void> | undefined;

  function assertOpen(): void {
    if (closing) throw new BusUnavailableError('message bus is closed');
  }

  return {
    kind: 'rabbitmq',
    inFlight: () => publisher.inFlight(),
    isReady: () => closing === undefined && connection.current() !== null,

    async publish(topic, payload, publishOptions) {
      assertOpen();
      if (publishOptions?.pack) {
        await packer.send({
          exchange,
          topic,
          body: encodeBody(payload),
          properties: publishProperties(publishOptions),
        });
        return;
      }
      const { content, properties } = encode(payload, publishOptions);
      await publisher.publish(exchange, topic, content, properties);
    },

    async request(topic, payload, requestOptions) {
      assertOpen();
      return parseReply(await requester.requestJson(topic, payload, requestOptions));
    },

    async requestJson(topic, payload, requestOptions) {
      assertOpen();
      return requester.requestJson(topic, payload, requestOptions);
    },

    async consume(consumeOptions, handler) {
      assertOpen();
      const started = await startConsumer(consumerContext, resolveConsumeOptions(consumeOptions), handler);
      const consumer: Consumer = {
        async cancel() {
          consumers.delete(consumer);
          await started.cancel();
        },
      };
      consumers.add(consumer);
      return consumer;
    },

    async takeDeadLetters(queue, limit) {
      assertOpen();
      return withThrowawayChannel(connection, publishTimeoutMs, [], async (channel) => {
        const letters: DeadLetter[] = [];
        while (letters.length < limit) {
          const message = await channel.get(dlqName(queue), { noAck: false });
          if (message === false) break;
          letters.push(...decodeDeadLetters(message));
          channel.ack(message);
        }
        return letters;
      });
    },

    async depth(queue) {
      assertOpen();
      return withThrowawayChannel(
        connection,
        publishTimeoutMs,
        0,
        async (channel) => (await channel.checkQueue(queue)).messageCount,
      );
    },

    close() {
      // Ordered: stop intake, drain handlers (their dead-letter publishes need the
      // publisher), wait for outstanding confirms, then close channels and the connection.
      closing ??= (async () => {
        await Promise.all([...consumers].map((consumer) => consumer.cancel()));
        await publisher.settled();
        await requester.close();
        await connection.close();
      })();
      return closing;
    },
  };
}

/**
 * A broker 404 (no such queue) closes the channel it happened on, so passive declares
 * and basic.get run on a short-lived channel and a 404 reads as `absent`.
 */
async function withThrowawayChannel<T>(
  connection: RabbitConnection,
  timeoutMs: number,
  absent: T,
  work: (channel: Channel) => Promise<T>,
): Promise<T> {
  const session = await connection.waitForSession(timeoutMs);
  const channel = await session.model.createChannel();
  let closed = false;
  channel.on('error', () => {});
  channel.on('close', () => (closed = true));
  try {
    return await work(channel);
  } catch (err) {
    if ((err as { code?: unknown }).code === 404) return absent;
    throw err;
  } finally {
    if (!closed) await channel.close().catch(() => {});
  }
}
