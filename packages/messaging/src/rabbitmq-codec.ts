/** How bus messages map onto AMQP 0-9-1 messages, properties and queue arguments. */
import { randomUUID } from 'node:crypto';
import type { GetMessage, Message, Options } from 'amqplib';
import type { DeadLetter, Delivery, PublishOptions } from './bus.port.ts';
import type { ResolvedConsumeOptions } from './consume-options.ts';

/** Our own headers on dead letters: the handler's last error and the original routing key. */
const REASON_HEADER = 'x-skiptrace-reason';
const TOPIC_HEADER = 'x-skiptrace-topic';
/** On a message taken out of a pack to be retried alone: deliveries it already had. */
const ATTEMPTS_HEADER = 'x-skiptrace-attempts';
/** Headers the broker or this adapter add; not shown to handlers as message headers. */
const RESERVED_HEADERS = new Set(['x-delivery-count', 'x-death', REASON_HEADER, TOPIC_HEADER, ATTEMPTS_HEADER]);

/**
 * A pack: several messages of one topic in one AMQP message, body a JSON array of
 * `{messageId, headers, payload, correlationId?}` (replies: `{correlationId, payload}`). Only groups of two or more are packed; a lone message stays plain JSON.
 */
export const PACK_CONTENT_TYPE = 'application/vnd.skiptrace.pack+json';

export const dlqName = (queue: string): string => `${queue}.dlq`;

export interface Encoded {
  content: Buffer;
  properties: Options.Publish;
}

export function encode(payload: unknown, options?: PublishOptions): Encoded {
  return { content: Buffer.from(encodeBody(payload)), properties: publishProperties(options) };
}

export const encodeBody = (payload: unknown): string => JSON.stringify(payload ?? null);

export function publishProperties(options?: PublishOptions, contentType = 'application/json'): Options.Publish {
  return {
    messageId: options?.messageId ?? randomUUID(),
    headers: { ...options?.headers },
    contentType,
    persistent: true,
    timestamp: Math.floor(Date.now() / 1000),
  };
}

/**
 * One message's entry in a pack; `body` is its payload already encoded as JSON. Requests
 * in a pack share the pack's reply address (the broker rewrites `amq.rabbitmq.reply-to`
 * only in the AMQP property), so an entry carries just its correlationId.
 */
export function packEntry(body: string, properties: Options.Publish): string {
  const { messageId, headers, correlationId } = properties;
  const correlation = correlationId ? `,"correlationId":${JSON.stringify(correlationId)}` : '';
  return `{"messageId":${JSON.stringify(messageId)},"headers":${JSON.stringify(headers ?? {})}${correlation},"payload":${body}}`;
}

export const replyEntry = (correlationId: string, body: string): string =>
  `{"correlationId":${JSON.stringify(correlationId)},"payload":${body}}`;

export const packContent = (entries: string[]): Buffer => Buffer.from(`[${entries.join(',')}]`);

export const isPack = (message: Message): boolean => message.properties.contentType === PACK_CONTENT_TYPE;

/** A delivery plus where its reply goes (from the AMQP properties or its pack entry). */
export interface Incoming {
  delivery: Delivery;
  replyTo?: string;
  correlationId?: string;
}

export function decodeDelivery(message: Message): Incoming {
  const raw = (message.properties.headers ?? {}) as Record<string, unknown>;
  // Quorum queues count earlier deliveries of this message in x-delivery-count; a message
  // retried alone out of a pack also carries the deliveries it had inside the pack.
  const attempt = deliveryCount(raw) + Number(raw[ATTEMPTS_HEADER] ?? 0) + 1;
  return {
    delivery: {
      topic: typeof raw[TOPIC_HEADER] === 'string' ? raw[TOPIC_HEADER] : message.fields.routingKey,
      payload: JSON.parse(message.content.toString('utf8')),
      messageId: String(message.properties.messageId ?? ''),
      headers: userHeaders(raw),
      attempt: Number.isFinite(attempt) ? attempt : 1,
      reply: () => {},
    },
    replyTo: message.properties.replyTo,
    correlationId: message.properties.correlationId,
  };
}

/** The messages of a pack; throws when the body is not a well-formed pack. */
export function decodePack(message: Message): Incoming[] {
  const raw = (message.properties.headers ?? {}) as Record<string, unknown>;
  const attempt = deliveryCount(raw) + 1;
  return entriesOf(message).map((entry) => ({
    delivery: {
      topic: message.fields.routingKey,
      payload: entry.payload,
      messageId: entry.messageId,
      headers: entry.headers,
      attempt,
      reply: () => {},
    },
    replyTo: message.properties.replyTo,
    correlationId: entry.correlationId,
  }));
}

/** A replies pack: correlationId and payload of each reply. */
export function decodeReplies(message: Message): { correlationId: string; payload: unknown }[] {
  const entries: unknown = JSON.parse(message.content.toString('utf8'));
  if (!Array.isArray(entries)) throw new Error('a replies pack must be a JSON array');
  return entries.map((entry: { correlationId?: unknown; payload?: unknown }) => ({
    correlationId: String(entry?.correlationId),
    payload: entry?.payload,
  }));
}

interface PackedMessage {
  messageId: string;
  headers: Record<string, string>;
  payload: unknown;
  correlationId?: string;
}

function entriesOf(message: Message): PackedMessage[] {
  const entries: unknown = JSON.parse(message.content.toString('utf8'));
  if (!Array.isArray(entries)) throw new Error('a pack must be a JSON array');
  return entries.map((entry: Record<string, unknown>, i) => {
    if (typeof entry?.['messageId'] !== 'string') throw new Error(`pack entry ${i} has no messageId`);
    return {
      messageId: entry['messageId'],
      headers: userHeaders((entry['headers'] ?? {}) as Record<string, unknown>),
      payload: entry['payload'] ?? null,
      correlationId: typeof entry['correlationId'] === 'string' ? entry['correlationId'] : undefined,
    };
  });
}

/**
 * A message out of a pack, sent again on its own straight to `queue` (the default
 * exchange, so no other queue bound to the topic gets a copy), keeping its topic, its
 * reply address and the deliveries it has had.
 */
export function retryAlone(incoming: Incoming): Encoded {
  const { delivery, replyTo, correlationId } = incoming;
  return {
    content: Buffer.from(encodeBody(delivery.payload)),
    properties: {
      messageId: delivery.messageId,
      contentType: 'application/json',
      persistent: true,
      headers: { ...delivery.headers, [TOPIC_HEADER]: delivery.topic, [ATTEMPTS_HEADER]: String(delivery.attempt) },
      ...(replyTo ? { replyTo, correlationId } : {}),
    },
  };
}

/** A message out of a pack, dead-lettered on its own with the handler's last error. */
export function deadLetterAlone(delivery: Delivery, reason: string): Encoded {
  return {
    content: Buffer.from(encodeBody(delivery.payload)),
    properties: {
      messageId: delivery.messageId,
      contentType: 'application/json',
      persistent: true,
      headers: { ...delivery.headers, [REASON_HEADER]: reason, [TOPIC_HEADER]: delivery.topic },
    },
  };
}

function deliveryCount(raw: Record<string, unknown>): number {
  return typeof raw['x-delivery-count'] === 'number' ? raw['x-delivery-count'] : 0;
}

/** Properties for republishing a failed message to its dead-letter queue. */
export function deadLetterProperties(message: Message, reason: string): Options.Publish {
  const raw = (message.properties.headers ?? {}) as Record<string, unknown>;
  return {
    messageId: message.properties.messageId,
    contentType: message.properties.contentType,
    persistent: true,
    headers: {
      ...userHeaders(raw),
      [REASON_HEADER]: reason,
      [TOPIC_HEADER]: String(raw[TOPIC_HEADER] ?? message.fields.routingKey),
    },
  };
}

/**
 * Reads a dead letter either republished by the consumer (our reason header) or
 * dead-lettered by the broker itself (x-death; e.g. `delivery_limit` after a consumer crash).
 */
export function decodeDeadLetters(message: GetMessage): DeadLetter[] {
  const raw = (message.properties.headers ?? {}) as Record<string, unknown>;
  const death = Array.isArray(raw['x-death']) ? (raw['x-death'][0] as Record<string, unknown>) : undefined;
  const deathKeys = Array.isArray(death?.['routing-keys']) ? (death['routing-keys'] as unknown[]) : [];
  const topic = String(raw[TOPIC_HEADER] ?? deathKeys[0] ?? message.fields.routingKey);
  const reason = String(raw[REASON_HEADER] ?? death?.['reason'] ?? 'unknown');
  if (isPack(message)) {
    try {
      return entriesOf(message).map(({ payload, messageId }) => ({ payload, topic, messageId, reason }));
    } catch {
      // Not a readable pack after all: shown whole, as text, below.
    }
  }
  const text = message.content.toString('utf8');
  let payload: unknown = text;
  try {
    payload = JSON.parse(text);
  } catch {
    // Kept as text: a message that was not JSON is dead-lettered for that very reason.
  }
  return [{ payload, topic, messageId: String(message.properties.messageId ?? ''), reason }];
}

/**
 * A durable quorum queue. The consumer dead-letters on the last attempt itself (to record
 * the error); the broker's delivery limit is the backstop for a message whose handler
 * never settles it (process crash): with limit maxAttempts-1 the broker allows exactly
 * maxAttempts deliveries, then dead-letters via the default exchange to `<queue>.dlq`.
 */
export function queueArguments(options: ResolvedConsumeOptions): Options.AssertQueue {
  return {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-delivery-limit': options.maxAttempts - 1,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': dlqName(options.queue),
    },
  };
}

function userHeaders(raw: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (RESERVED_HEADERS.has(key) || key.startsWith('x-first-death-')) continue;
    if (typeof value === 'string') headers[key] = value;
    else if (Buffer.isBuffer(value)) headers[key] = value.toString('utf8');
  }
  return headers;
}
