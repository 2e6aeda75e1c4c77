import { z } from 'zod';
import { Property, PropertyResponse, StoredProperty } from './property.ts';

/**
 * The catalogue of every message on the bus: routing key → payload schema. Producers
 * and consumers are typed from it (see `Message<N>`), so a mismatch is a compile error,
 * and consumers validate what they receive against the same schema.
 */
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
    status: z.enum(['queued', 'running', 'completed', 'cancelled', 'failed']),
    total: z.number().int(),
    processed: z.number().int(),
    matched: z.number().int(),
    no_match: z.number().int(),
    failed: z.number().int(),
    rejected: z.number().int(),
    reused: z.number().int(),
    created_at: z.string(),
    completed_at: z.string().optional(),
    /** Why a `failed` batch could not finish (e.g. its chunk jobs kept getting lost). */
    error: z.string().optional(),
  })
  .meta({ id: 'BatchSummary' });
export type BatchSummary = z.infer<typeof BatchSummary>;

const event = <T extends z.ZodType>(data: T) => z.object({ accountId: z.string(), occurredAt: z.string(), data });

export const MESSAGES = {
  'job.skiptrace': SkipTraceJob,
  'job.batch.chunk': BatchChunkJob,
  'event.plant.added': event(StoredProperty),
  'event.skiptrace.completed': event(PropertyResponse),
  'event.batch.completed': event(BatchSummary),
} as const;

export type MessageName = keyof typeof MESSAGES;
export type Message<N extends MessageName> = z.infer<(typeof MESSAGES)[N]>;

/**
 * Messages that may share one broker message with others sent at the same moment (the
 * bus's `pack` option): the small, frequent ones of the synchronous path. Batch chunks
 * stay one per broker message, so that they spread over the workers chunk by chunk.
 */
export const PACKED_MESSAGES: ReadonlySet<MessageName> = new Set<MessageName>([
  'job.skiptrace',
  'event.plant.added',
  'event.skiptrace.completed',
]);

/** Webhook event types: the bus event names without the `event.` prefix. */
export const WEBHOOK_EVENT_TYPES = ['plant.added', 'skiptrace.completed', 'batch.completed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Queues (consumer groups) and the routing keys they take. */
export const QUEUES = {
  skiptraceJobs: { name: 'skiptrace.jobs', topics: ['job.skiptrace'] },
  batchChunks: { name: 'skiptrace.batch-chunks', topics: ['job.batch.chunk'] },
  webhookEvents: {
    name: 'webhooks.events',
    topics: ['event.plant.added', 'event.skiptrace.completed', 'event.batch.completed'],
  },
} as const;

export function parseMessage<N extends MessageName>(name: N, payload: unknown): Message<N> {
  return MESSAGES[name].parse(payload) as Message<N>;
}
