import { z } from 'zod';

const INT64_MAX = 9223372036854775807n;
const int64Message = 'must be a positive 64-bit integer';

/** A positive int64 path id, kept as a decimal string for SQL. */
export const Int64String = z
  .string()
  .regex(/^[1-9]\d{0,18}$/, { message: int64Message, abort: true })
  .refine((v) => BigInt(v) <= INT64_MAX, int64Message);

/** The same id documented as an OpenAPI integer (the seed's `/plants/{id}` is int64). */
export const Int64Integer = Int64String.meta({
  override: { type: 'integer', format: 'int64', minimum: 1, pattern: undefined },
});

export const IdParams = (description: string, integer = false) =>
  z.object({ id: (integer ? Int64Integer : Int64String).describe(description) });

export const StringIdParams = (description: string) =>
  z.object({ id: z.string().min(1).max(100).describe(description) });

export const IdempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .max(200)
    .optional()
    .describe('Same key and body within 24 h return the first answer instead of doing the work again'),
});

/** Response headers of a paged list. */
export const PageHeaders = z.object({
  'X-Next-Cursor': z.string().optional().describe('Cursor of the next page (pass as ?cursor=), when there is one'),
  Link: z.string().optional().describe('RFC 8288 rel="next" link to the next page'),
});
