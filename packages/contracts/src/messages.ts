import { z } from 'zod';
import { BATCH_STATES } from './batch-states.ts';
import { Property, PropertyResponse, StoredProperty } from './property.ts';
import { QuotaWarning } from './usage.ts';

/** A synchronous or recovered skip trace for the worker (`job.skiptrace`; see MESSAGES). */
export const SkipTraceJob = z.object({
  propertyId: z.number().int().positive(),
  accountId: z.string(),
  property: Property,
  /** Batch the row belongs to, when it came from a batch. */
  batchId: z.string().optional(),
  requestedAt: z.string(),
});

export const BatchChunkJob = z.object({
  batchId: z.string(),
  accountId: z.string(),
  /** Inclusive row-number range of the chunk (1-based input rows). */
  fromRow: z.number().int().positive(),
  toRow: z.number().int().positive(),
});

export const BatchSummary = z
  .object({
    id: z.string(),
    status: z.enum(BATCH_STATES),
    total: z.number().int(),
    processed: z.number().int().describe('Accepted rows settled: matched + no_match + failed + erased'),
    matched: z.number().int(),
    no_match: z.number().int(),
    failed: z.number().int(),
    /** Accepted rows erased (DELETE /plants/{id}) before they were traced; counted in processed. */
    erased: z
      .number()
      .int()
      .describe('Rows erased (DELETE /plants/{id}) before they were traced; counted in processed'),
    rejected: z.number().int(),
    reused: z.number().int(),
    created_at: z.string(),
    completed_at: z.string().optional(),
    /** Why a `failed` batch could not finish (e.g. its chunk jobs kept getting lost). */
    error: z.string().optional(),
  })
  .meta({ id: 'BatchSummary' });
export type BatchSummary = z.infer<typeof BatchSummary>;

/** `batch.completed`'s data: the summary, with the list's name and tags to tell which list it was. */
export const BatchCompleted = BatchSummary.extend({
  name: z.string().describe("The list's name (the uploaded file's name by default)"),
  tags: z.array(z.string()).describe('Labels of the list'),
}).meta({ id: 'BatchCompleted' });

const event = <T extends z.ZodType>(data: T) => z.object({ accountId: z.string(), occurredAt: z.string(), data });

/**
 * What the bus checks of an event on delivery: the envelope, with `data` as sent (not
 * copied). The dispatcher reads only the envelope to find the account's subscribers, and
 * validates `data` against the whole schema for an event someone subscribed to, before it
 * is stored and signed (packages/dispatcher/src/fanout.ts): a full result is not parsed
 * and copied for an account that has no webhook for it.
 */
const EventEnvelope = event(z.unknown());

const eventEntry = <T extends z.ZodType, P extends boolean>(data: T, pack: P) =>
  ({ schema: event(data), deliveryCheck: EventEnvelope, queue: 'webhooks.events', pack }) as const;

/**
 * One entry of the message catalogue. The entry's name is the message's routing key on the
 * bus's one topic exchange (`skiptrace` by default, see @skiptrace/messaging).
 */
interface MessageEntry {
  /** The payload; consumers validate every delivery against it (publishers are typed by it). */
  schema: z.ZodType;
  /**
   * When present, what the bus validates on delivery instead of `schema` (a part of it); the
   * consumer then validates the rest itself before it relies on it (the events: EventEnvelope).
   */
  deliveryCheck?: z.ZodType;
  /** The reply a consumer gives to a request() of this message, when it is one that is requested. */
  reply?: z.ZodType;
  /** The durable queue (consumer group) bound to this routing key. */
  queue: string;
  /**
   * May share one broker message with others sent in the same turn (the bus's packing): the
   * small, frequent messages of the synchronous path. Batch chunks stay one per broker
   * message, so that they spread over the workers chunk by chunk.
   */
  pack: boolean;
}

export type MessageCatalogue = Readonly<Record<string, MessageEntry>>;

/**
 * The catalogue of every message on the bus, and the only place a routing key, a queue
 * name, a payload schema or a packing policy is written. The bus port (`MessageBus` in
 * @skiptrace/messaging) is typed from it: `publish`/`request` take the payload of the
 * message named and `consume` takes a queue name and hands its handler the payloads of the
 * messages bound to that queue, validated; a mismatch is a compile error.
 */
export const MESSAGES = {
  'job.skiptrace': { schema: SkipTraceJob, reply: PropertyResponse, queue: 'skiptrace.jobs', pack: true },
  'job.batch.chunk': { schema: BatchChunkJob, queue: 'skiptrace.batch-chunks', pack: false },
  'event.plant.added': eventEntry(StoredProperty, true),
  'event.skiptrace.completed': eventEntry(PropertyResponse, true),
  'event.batch.completed': eventEntry(BatchCompleted, false),
  'event.quota.warning': eventEntry(QuotaWarning, false),
} as const satisfies MessageCatalogue;

export type MessageName = keyof typeof MESSAGES;
export type Message<N extends MessageName> = z.infer<(typeof MESSAGES)[N]['schema']>;
export type QueueName = (typeof MESSAGES)[MessageName]['queue'];

export function parseMessage<N extends MessageName>(name: N, payload: unknown): Message<N> {
  return MESSAGES[name].schema.parse(payload) as Message<N>;
}

/** Webhook event types: the catalogue's event names without the `event.` prefix. */
export type WebhookEventType = MessageName extends infer N ? (N extends `event.${infer T}` ? T : never) : never;
export const WEBHOOK_EVENT_TYPES = Object.keys(MESSAGES).flatMap((name) =>
  name.startsWith('event.') ? [name.slice('event.'.length)] : [],
) as [WebhookEventType, ...WebhookEventType[]];
