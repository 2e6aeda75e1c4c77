import type { z } from 'zod';
import { ApiError } from './api-error.ts';

/**
 * The one formatter of Zod issues for API answers: every bad field named with its path
 * (`events.0: …`), unknown keys listed, issues joined by `; `. `where` names the root when
 * an issue has no path (the whole body or query).
 */
export function describeIssues(error: z.ZodError, where = 'body'): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      if (issue.code === 'unrecognized_keys') {
        const keys = issue.keys.join(', ');
        return path ? `${path}: unknown field(s) ${keys}` : `unknown field(s) ${keys}`;
      }
      return `${path || where}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Parses untrusted input with a contracts schema. A body must be a JSON object;
 * failures answer `validation_failed` (body) or `invalid_parameter` (query, path).
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  kind: 'validation_failed' | 'invalid_parameter' = 'validation_failed',
): z.infer<S> {
  if (kind === 'validation_failed' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
    throw new ApiError('validation_failed', 'request body must be a JSON object');
  }
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  throw new ApiError(kind, describeIssues(parsed.error, kind === 'validation_failed' ? 'body' : 'query'));
}

const INT64_MAX = 9223372036854775807n;

/** int64 ids (path parameters, cursors): positive decimal, at most 2^63-1. Returned as a string for SQL. */
export function parseInt64Id(raw: string | undefined, name = 'id'): string {
  if (!raw || !/^[1-9]\d{0,18}$/.test(raw) || BigInt(raw) > INT64_MAX) {
    throw new ApiError('invalid_parameter', `${name} must be a positive 64-bit integer`);
  }
  return raw;
}

/**
 * Opaque keyset cursors: `<kind>:<last id>` in base64url, so a cursor of one listing
 * (kind `id` for properties, `batch` for batches) is refused by another.
 */
export function encodeCursor(kind: string, id: string | number | bigint): string {
  return Buffer.from(`${kind}:${id}`).toString('base64url');
}

export function decodeCursor(kind: string, cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64url').toString();
  if (!decoded.startsWith(`${kind}:`)) throw new ApiError('invalid_parameter', 'cursor is not valid');
  return parseInt64Id(decoded.slice(kind.length + 1), 'cursor');
}
