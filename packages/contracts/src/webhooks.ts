import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from './messages.ts';

/**
 * Webhook subscriptions and deliveries (`/api/v1/webhooks/...`). Deliveries follow
 * Standard Webhooks: the body is the documented object itself, the event type travels
 * in the `webhook-event-type` header.
 */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
  eventType: 'webhook-event-type',
} as const;

/** Event type of the delivery sent by `POST /endpoints/{id}/test`. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/**
 * What an endpoint's `events` may name: every type of the event table in docs/webhooks.md,
 * the test event included, so a list copied from it is accepted. The test event is sent by
 * `POST /endpoints/{id}/test` to that endpoint whatever its filter; naming it (alone) gives
 * an endpoint that receives nothing but tests, e.g. while a receiver is being built.
 */
export const WEBHOOK_SUBSCRIBABLE_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE] as const;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const WEBHOOK_URL_MAX = 2000;

const EndpointUrl = z
  .string()
  .max(WEBHOOK_URL_MAX, `must be at most ${WEBHOOK_URL_MAX} characters`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an absolute http or https URL')
  .refine((value) => !URL.canParse(value) || (new URL(value).username === '' && new URL(value).password === ''), {
    message: 'must not contain credentials',
  })
  .describe('Where deliveries are POSTed (http or https)');

const EventTypes = z
  .array(z.enum(WEBHOOK_SUBSCRIBABLE_EVENT_TYPES))
  .min(1, 'must name at least one event type')
  .describe('Event types delivered; absent or null means all');

const Description = z.string().trim().max(500, 'must be at most 500 characters');

export const WebhookEndpointCreate = z
  .object({
    url: EndpointUrl,
    events: EventTypes.nullable().optional(),
    description: Description.optional(),
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/, 'must be whsec_ followed by base64 of 24 to 66 bytes')
      .optional()
      .describe(
        'Signing secret to use instead of a generated one (e.g. one already configured in the receiver); whsec_ + base64 of at least 24 random bytes',
      ),
  })
  .strict()
  .meta({ id: 'WebhookEndpointCreate' });
export type WebhookEndpointCreate = z.infer<typeof WebhookEndpointCreate>;

export const WebhookEndpointPatch = z
  .object({
    url: EndpointUrl.optional(),
    events: EventTypes.nullable().optional(),
    description: Description.nullable().optional(),
    enabled: z.boolean().optional().describe('false pauses deliveries; true re-enables a disabled endpoint'),
  })
  .strict()
  .meta({ id: 'WebhookEndpointPatch' });
export type WebhookEndpointPatch = z.infer<typeof WebhookEndpointPatch>;

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.enum(WEBHOOK_SUBSCRIBABLE_EVENT_TYPES)).nullable().describe('null: all event types'),
    enabled: z.boolean(),
    disabled_reason: z
      .enum(['manual', 'gone', 'failing'])
      .nullable()
      .describe('manual: PATCH enabled=false; gone: the receiver answered 410; failing: failed continuously'),
    failing_since: z.string().nullable().describe('ISO 8601; first failure of the current failure streak'),
    previous_secret_expires_at: z.string().nullable().describe('Until then the previous secret also signs'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** Returned only on create and on rotate-secret. */
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().describe('whsec_ + base64 of 32 random bytes'),
}).meta({ id: 'WebhookEndpointWithSecret' });
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;

export const WebhookAttempt = z
  .object({
    attempted_at: z.string(),
    status_code: z.number().int().nullable().describe('HTTP status; null when no response arrived'),
    duration_ms: z.number().int(),
    response_body: z.string().nullable().describe('First 2 KiB of the response body'),
    error: z.string().nullable(),
    trigger: z.enum(['scheduled', 'manual']),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDelivery = z
  .object({
    id: z.string().describe('The webhook-id header value; stable across retries and replays'),
    endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempt_count: z.number().int(),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
    attempts: z.array(WebhookAttempt),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});

export const WebhookRecoverQuery = z.object({
  since: z.iso.datetime({ offset: true, message: 'since must be an ISO 8601 date-time' }),
});

/** Headers of every delivery (lower-case, as Node exposes them). */
export const WebhookHeaders = z.object({
  [WEBHOOK_HEADERS.id]: z.string().regex(/^[^.]+$/),
  [WEBHOOK_HEADERS.timestamp]: z.string().regex(/^\d+$/),
  [WEBHOOK_HEADERS.signature]: z.string(),
  [WEBHOOK_HEADERS.eventType]: z.string(),
});
export type WebhookHeaders = z.infer<typeof WebhookHeaders>;
