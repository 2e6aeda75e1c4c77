/**
 * request() over RabbitMQ direct reply-to: one channel per session consumes the
 * pseudo-queue `amq.rabbitmq.reply-to` (no-ack, as the broker requires) and publishes the
 * requests, so replies come back on it by correlationId. A reply after the timeout finds no
 * pending entry and is dropped. When the channel goes (connection lost) its pending
 * requests can never get a reply and fail with BusUnavailableError at once.
 */
import { randomUUID } from 'node:crypto';
import type { Channel, ConsumeMessage } from 'amqplib';
import { BusUnavailableError, RequestTimeoutError } from './bus.port.ts';
import type { RequestOptions } from './bus.port.ts';
import { errorMessage } from './bus-logger.ts';
import type { BusLogger } from './bus-logger.ts';
import { decodeReplies, encodeBody, isPack, publishProperties } from './rabbitmq-codec.ts';
import { createPacker, type Packer } from './rabbitmq-packer.ts';
import type { RabbitConnection, Session } from './rabbitmq-connection.ts';

const REPLY_TO = 'amq.rabbitmq.reply-to';

interface Pending {
  channel: Channel;
  resolve: (json: Buffer) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export interface Requester {
  /** The reply's JSON text (UTF-8) as it arrived, not decoded. */
  requestJson(topic: string, payload: unknown, options: RequestOptions): Promise<Buffer>;
  /** Fails the requests still waiting and closes the reply channel. */
  close(): Promise<void>;
}

export function createRequester(connection: RabbitConnection, exchange: string, logger: BusLogger): Requester {
  const pending = new Map<string, Pending>();
  let replies: { session: Session; channel: Promise<Channel> } | null = null;

  function fail(channel: Channel | null, err: Error): void {
    for (const [id, entry] of pending) {
      if (channel && entry.channel !== channel) continue;
      clearTimeout(entry.timer);
      pending.delete(id);
      entry.reject(err);
    }
  }

  const packers = new WeakMap<Channel, Packer>();

  function settle(id: unknown, json: Buffer): void {
    const entry = typeof id === 'string' ? pending.get(id) : undefined;
    if (!entry) {
      logger.debug({ correlationId: id }, 'reply without a waiting request dropped');
      return;
    }
    clearTimeout(entry.timer);
    pending.delete(id as string);
    entry.resolve(json);
  }

  // A reply is handed on as the JSON text it came in (a pack's replies as views into it):
  // a caller that only passes it on (the gateway) never decodes it.
  function onReply(message: ConsumeMessage | null): void {
    if (!message) return;
    if (!isPack(message)) {
      settle(message.properties.correlationId, message.content);
      return;
    }
    let replies: ReturnType<typeof decodeReplies>;
    try {
      replies = decodeReplies(message);
    } catch (err) {
      logger.warn({ err: errorMessage(err) }, 'undecodable replies pack dropped');
      return;
    }
    for (const { correlationId, json } of replies) settle(correlationId, json);
  }

  // Requests go out on the reply channel (direct reply-to requires it), without confirms.
  function packerFor(channel: Channel): Packer {
    let packer = packers.get(channel);
    if (!packer) {
      packer = createPacker(async (exchange, topic, content, properties) => {
        channel.publish(exchange, topic, content, properties);
      });
      packers.set(channel, packer);
    }
    return packer;
  }

  async function openReplyChannel(session: Session): Promise<Channel> {
    const channel = await session.model.createChannel();
    channel.on('error', (err: Error) => logger.warn({ err: errorMessage(err) }, 'reply channel error'));
    channel.on('close', () => {
      if (replies?.session === session) replies = null;
      fail(channel, new BusUnavailableError('connection lost while waiting for the reply'));
    });
    await channel.consume(REPLY_TO, onReply, { noAck: true });
    return channel;
  }

  function replyChannel(session: Session): Promise<Channel> {
    if (replies?.session === session) return replies.channel;
    const channel = openReplyChannel(session);
    replies = { session, channel };
    channel.catch(() => {
      if (replies?.channel === channel) replies = null;
    });
    return channel;
  }

  return {
    async requestJson(topic, payload, options) {
      const started = Date.now();
      const session = await connection.waitForSession(options.timeoutMs);
      const channel = await replyChannel(session);
      const remaining = options.timeoutMs - (Date.now() - started);
      const correlationId = randomUUID();
      const body = encodeBody(payload);
      const properties = { ...publishProperties(options), replyTo: REPLY_TO, correlationId };
      return new Promise<Buffer>((resolve, reject) => {
        const timer = setTimeout(
          () => {
            pending.delete(correlationId);
            reject(new RequestTimeoutError(`no reply to ${topic} within ${options.timeoutMs} ms`));
          },
          Math.max(0, remaining),
        );
        pending.set(correlationId, { channel, resolve, reject, timer });
        const notSent = (err: unknown): void => {
          clearTimeout(timer);
          pending.delete(correlationId);
          reject(new BusUnavailableError(`request to ${topic} not sent: ${errorMessage(err)}`));
        };
        if (options.pack) {
          packerFor(channel).send({ exchange, topic, body, properties }).catch(notSent);
          return;
        }
        try {
          channel.publish(exchange, topic, Buffer.from(body), properties);
        } catch (err) {
          notSent(err);
        }
      });
    },

    async close() {
      fail(null, new BusUnavailableError('message bus closed before the reply arrived'));
      const current = replies;
      replies = null;
      if (current) await (await current.channel.catch(() => null))?.close().catch(() => {});
    },
  };
}
