/** How bus messages map onto AMQP 0-9-1 messages, properties and queue arguments. */
import { randomUUID } from 'node:crypto';
import type { GetMessage, Message, Options } from 'amqplib';
import type { DeadLetter, Delivery, PublishOptions } from './bus.port.ts';
import type { ResolvedConsumeOptions } from './consume-options.ts';

/** Our own headers on dead letters: the handler's last error and the original routing key. */
const REASON_HEADER = 'x-skiptrace-reason';
const TOPIC_HEADER = 'x-skiptrace-topic';
/** Headers the broker or this adapter add; not shown to handlers as message headers. */
const RESERVED_HEADERS = new Set(['x-delivery-count', 'x-death', REASON_HEADER, TOPIC_HEADER]);

export const dlqName = (queue: string): string => `${queue}.dlq`;

export interface Encoded {
  content: Buffer;
  properties: Options.Publish;
}

export function encode(payload: unknown, options?: PublishOptions): Encoded {
  return {
    content: Buffer.from(JSON.stringify(payload ?? null)),
    properties: {
      messageId: options?.messageId ?? randomUUID(),
      headers: { ...options?.headers },
      contentType: 'application/json',
      persistent: true,
      timestamp: Math.floor(Date.now() / 1000),
    },
  };
}

export function decodeDelivery(message: Message): Delivery {
  const raw = (message.properties.headers ?? {}) as Record<string, unknown>;
  // Quorum queues count earlier deliveries of this message in x-delivery-count.
  const count = typeof raw['x-delivery-count'] === 'number' ? raw['x-delivery-count'] : 0;
  return {
    topic: message.fields.routingKey,
    payload: JSON.parse(message.content.toString('utf8')),
    messageId: String(message.properties.messageId ?? ''),
    headers: userHeaders(raw),
    attempt: count + 1,
    reply: () => {},
  };
}

/** Properties for republishing a failed message to its dead-letter queue. */
export function deadLetterProperties(message: Message, reason: string): Options.Publish {
  const raw = (message.properties.headers ?? {}) as Record<string, unknown>;
  return {
    messageId: message.properties.messageId,
    contentType: message.properties.contentType,
    persistent: true,
    headers: { ...userHeaders(raw), [REASON_HEADER]: reason, [TOPIC_HEADER]: message.fields.routingKey },
  };
}

/**
 * Reads a dead letter either republished by the consumer (our reason header) or
 * dead-lettered by the broker itself (x-death; e.g. `delivery_limit` after a consumer crash).
 */
export function decodeDeadLetter(message: GetMessage): DeadLetter {
  const raw = (message.properties.headers ?? {}) as Record<string, unknown>;
  const death = Array.isArray(raw['x-death']) ? (raw['x-death'][0] as Record<string, unknown>) : undefined;
  const deathKeys = Array.isArray(death?.['routing-keys']) ? (death['routing-keys'] as unknown[]) : [];
  const text = message.content.toString('utf8');
  let payload: unknown = text;
  try {
    payload = JSON.parse(text);
  } catch {
    // Kept as text: a message that was not JSON is dead-lettered for that very reason.
  }
  return {
    payload,
    topic: String(raw[TOPIC_HEADER] ?? deathKeys[0] ?? message.fields.routingKey),
    messageId: String(message.properties.messageId ?? ''),
    reason: String(raw[REASON_HEADER] ?? death?.['reason'] ?? 'unknown'),
  };
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
