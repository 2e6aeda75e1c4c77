/** How bus messages map onto AMQP 0-9-1 messages, properties and queue arguments. */
import { randomUUID } from 'node:crypto';
import type { GetMessage, Message, Options } from 'amqplib';
import type { DeadLetter, Delivery, PublishOptions } from './bus.port.ts';
import type { ResolvedConsumeOptions } from './consume-options.ts';
import { encodeJson } from './json-text.ts';

/** Our own headers on dead letters: the handler's last error and the original routing key. */
const REASON_HEADER = 'x-skiptrace-reason';
const TOPIC_HEADER = 'x-skiptrace-topic';
/** On a message taken out of a pack to be retried alone: deliveries it already had. */
const ATTEMPTS_HEADER = 'x-skiptrace-attempts';
/**
 * On a replies pack: where each reply's payload lies in the body, as the JSON text of
 * `[[correlationId, start, end], …]` (byte offsets, end exclusive), so a requester takes
 * each reply's JSON as it is, without decoding the pack. A pack without it (sent by an
 * older consumer) is decoded whole.
 */
const REPLIES_HEADER = 'x-skiptrace-replies';
/** Headers the broker or this adapter add; not shown to handlers as message headers. */
const RESERVED_HEADERS = new Set([
  'x-delivery-count',
  'x-death',
  REASON_HEADER,
  TOPIC_HEADER,
  ATTEMPTS_HEADER,
  REPLIES_HEADER,
]);

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

/** A payload's JSON text (a JsonText payload is sent as it is). */
export const encodeBody = encodeJson;

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

export const packContent = (entries: string[]): Buffer => Buffer.from(`[${entries.join(',')}]`);

/**
 * A replies pack: `[{correlationId, payload}, …]` with the REPLIES_HEADER saying where each
 * payload lies in it. `body` is each reply's payload already encoded as JSON.
 */
export function repliesPack(replies: { correlationId: string; body: string }[]): Encoded {
  const spans: [string, number, number][] = [];
  const entries: string[] = [];
  let at = 1; // after '['
  for (const { correlationId, body } of replies) {
    const head = `{"correlationId":${JSON.stringify(correlationId)},"payload":`;
    const start = at + Buffer.byteLength(head);
    const end = start + Buffer.byteLength(body);
    spans.push([correlationId, start, end]);
    entries.push(`${head}${body}}`);
    at = end + 2; // after '},'
  }
  return {
    content: packContent(entries),
    properties: { contentType: PACK_CONTENT_TYPE, headers: { [REPLIES_HEADER]: JSON.stringify(spans) } },
  };
}

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

/**
 * A replies pack: the correlationId of each reply and its payload's JSON text (UTF-8), a
 * view into the message's body where the pack says where it lies (REPLIES_HEADER), else
 * (a pack without it) decoded and encoded again.
 */
export function decodeReplies(message: Message): { correlationId: string; json: Buffer }[] {
  const { content } = message;
  const spans = replySpans(message.properties.headers?.[REPLIES_HEADER], content.length);
  if (spans) return spans.map(([correlationId, start, end]) => ({ correlationId, json: content.subarray(start, end) }));
  const entries: unknown = JSON.parse(content.toString('utf8'));
  if (!Array.isArray(entries)) throw new Error('a replies pack must be a JSON array');
  return entries.map((entry: { correlationId?: unknown; payload?: unknown }) => ({
    correlationId: String(entry?.correlationId),
    json: Buffer.from(encodeJson(entry?.payload)),
  }));
}

/** The REPLIES_HEADER's spans, or undefined when there is none or it does not fit a body of `size` bytes. */
function replySpans(header: unknown, size: number): [string, number, number][] | undefined {
  const text = Buffer.isBuffer(header) ? header.toString('utf8') : header;
  if (typeof text !== 'string') return undefined;
  let spans: unknown;
  try {
    spans = JSON.parse(text);
  } catch {
    return undefined;
  }
  const fits = (span: unknown): span is [string, number, number] =>
    Array.isArray(span) &&
    typeof span[0] === 'string' &&
    Number.isInteger(span[1]) &&
    Number.isInteger(span[2]) &&
    0 < span[1] &&
    span[1] <= span[2] &&
    span[2] < size;
  return Array.isArray(spans) && spans.every(fits) ? spans : undefined;
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
