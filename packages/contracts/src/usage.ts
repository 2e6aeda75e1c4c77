import { z } from 'zod';

/**
 * Usage and quotas (`/api/v1/usage`): what an account and each of its API clients used,
 * counted where the work is stored (once, whatever the retries), per UTC day.
 */
export const USAGE_COUNTERS = ['sync_traces', 'batch_rows', 'hits', 'misses', 'phones', 'webhook_deliveries'] as const;
export type UsageCounter = (typeof USAGE_COUNTERS)[number];

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD');

export const UsageCounts = z
  .object({
    sync_traces: z.number().int().describe('Synchronous traces stored (POST /property/skiptrace)'),
    batch_rows: z.number().int().describe('Batch rows traced (reused results included)'),
    hits: z.number().int().describe('Traces and batch rows whose result holds at least one phone'),
    misses: z.number().int().describe('Traces and batch rows stored without a phone (failed ones are neither)'),
    phones: z.number().int().describe('Phone numbers returned'),
    webhook_deliveries: z.number().int().describe('Webhook attempts the receiver accepted (2xx)'),
  })
  .meta({ id: 'UsageCounts' });
export type UsageCounts = z.infer<typeof UsageCounts>;

export const UsageQuery = z
  .object({
    from: day.optional().describe('First UTC day, inclusive; default the first day of the current month'),
    to: day.optional().describe('Last UTC day, inclusive; default today'),
    group_by: z.enum(['day', 'client']).default('day').describe('One row per day (default) or per API client'),
  })
  .strict();

export const QuotaState = z
  .object({
    limit: z.number().int().describe('Per calendar month (UTC)'),
    used: z.number().int(),
    remaining: z.number().int(),
    resets_at: z.string().describe('ISO 8601: the start of the next month (UTC)'),
  })
  .meta({ id: 'QuotaState' });

export const Usage = z
  .object({
    from: day,
    to: day,
    group_by: z.enum(['day', 'client']),
    totals: UsageCounts,
    data: z.array(
      UsageCounts.extend({
        day: day.optional().describe('With group_by=day'),
        client_id: z
          .string()
          .nullable()
          .optional()
          .describe('With group_by=client; null for work from before clients were recorded'),
      }),
    ),
    quotas: z
      .object({ hits: QuotaState.nullable(), rows: QuotaState.nullable() })
      .describe('The monthly quotas of the account (null: none); rows counts sync traces and batch rows'),
    rate_limit: z
      .object({ limit: z.number().int(), window_seconds: z.number().int() })
      .nullable()
      .describe('Requests per window per account (RateLimit-Policy); null when the API has no limit'),
  })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof Usage>;

export const QuotaUpdate = z
  .object({
    monthly_hits: z.number().int().min(0).nullable().optional().describe('null removes the quota'),
    monthly_rows: z.number().int().min(0).nullable().optional().describe('null removes the quota'),
  })
  .strict()
  .meta({ id: 'QuotaUpdate' });
export type QuotaUpdate = z.infer<typeof QuotaUpdate>;

export const Quotas = z
  .object({
    monthly_hits: z.number().int().nullable(),
    monthly_rows: z.number().int().nullable(),
  })
  .meta({ id: 'Quotas' });
export type Quotas = z.infer<typeof Quotas>;

/** The `quota.warning` webhook event: an account passed 80 % of a monthly quota (once per month and quota). */
export const QuotaWarning = z
  .object({
    quota: z.enum(['hits', 'rows']),
    month: z.string().describe('YYYY-MM (UTC)'),
    limit: z.number().int(),
    used: z.number().int(),
    threshold: z.number().describe('0.8'),
  })
  .meta({ id: 'QuotaWarning' });
export type QuotaWarning = z.infer<typeof QuotaWarning>;
