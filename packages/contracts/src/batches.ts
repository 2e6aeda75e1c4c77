import { z } from 'zod';
import { BatchSummary } from './messages.ts';

/** Answer of POST /property/skiptrace/batches (202, also on an Idempotency-Key replay). */
export const BatchAccepted = z
  .object({
    id: z.string().describe('Batch id (int64 as a string)'),
    status: BatchSummary.shape.status,
    accepted: z.number().int().describe('Rows queued for tracing'),
    rejected: z.number().int().describe('Rows refused at upload (invalid fields); their reason is in the export'),
    status_url: z.string().describe('Path of the batch status document'),
  })
  .meta({ id: 'BatchAccepted' });
export type BatchAccepted = z.infer<typeof BatchAccepted>;

/** GET /property/skiptrace/batches/{id}: the summary plus progress, rate and ETA. */
export const BatchStatus = BatchSummary.extend({
  accepted: z
    .number()
    .int()
    .describe('total − rejected: rows that are or will be traced (or were erased before their trace)'),
  started_at: z.string().nullable().describe('ISO 8601; when the first chunk was queued'),
  updated_at: z.string().describe('ISO 8601; last progress'),
  rate: z.number().describe('Rows traced per second since started_at (one decimal)'),
  eta_seconds: z.number().int().nullable().describe('Seconds until done at the current rate; null when not running'),
  status_url: z.string(),
  results_url: z.string().describe('Export: CSV or NDJSON in input order, partial while running'),
}).meta({ id: 'BatchStatus' });
export type BatchStatus = z.infer<typeof BatchStatus>;
