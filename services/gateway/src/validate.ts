import { ApiError } from '@skiptrace/runtime';
import type { z } from 'zod';

/** Turns Zod issues into one message naming every bad field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('validation_failed', 'request body must be a JSON object');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError('validation_failed', describeIssues(parsed.error));
  return parsed.data;
}

export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw new ApiError('invalid_parameter', describeIssues(parsed.error));
  return parsed.data;
}

/** int64 path ids: positive decimal, at most 19 digits. Returned as a string for SQL. */
export function parseId(raw: string | undefined, name = 'id'): string {
  if (!raw || !/^[1-9]\d{0,18}$/.test(raw) || BigInt(raw) > 9223372036854775807n) {
    throw new ApiError('invalid_parameter', `${name} must be a positive 64-bit integer`);
  }
  return raw;
}
