import { z } from 'zod';

/**
 * The stable table of API error codes. Every API failure body is the seed's Error
 * object `{ error: <code>, message }`; the code never changes meaning once published.
 * New codes may be added; clients should treat an unknown code by its HTTP status.
 */
export const ERROR_CODES = {
  validation_failed: { code: 1000, status: 400, meaning: 'A field of the request body is missing or malformed' },
  invalid_json: { code: 1001, status: 400, meaning: 'The body is not valid JSON' },
  invalid_parameter: { code: 1002, status: 400, meaning: 'A path or query parameter is malformed or out of range' },
  unsupported_media_type: { code: 1003, status: 415, meaning: 'The Content-Type is not one the endpoint accepts' },
  payload_too_large: { code: 1004, status: 413, meaning: 'The body or row count exceeds the documented limit' },
  idempotency_conflict: {
    code: 1005,
    status: 409,
    meaning: 'The Idempotency-Key was used before with a different body',
  },
  malformed_request: {
    code: 1006,
    status: 400,
    meaning: 'The HTTP request itself is malformed (bad chunk, duplicate Content-Length, unknown method, bad header)',
  },
  request_timeout: {
    code: 1007,
    status: 408,
    meaning: 'The request headers or body did not arrive in time; the connection is closed',
  },
  headers_too_large: { code: 1008, status: 431, meaning: 'The request headers are larger than the server accepts' },
  unauthorized: { code: 1100, status: 401, meaning: 'Missing, malformed, expired or unverifiable bearer token' },
  insufficient_scope: { code: 1101, status: 403, meaning: 'The token lacks the scope the operation needs' },
  insufficient_role: {
    code: 1102,
    status: 403,
    meaning: "The signed-in member's role does not allow the operation (docs/oauth.md, roles)",
  },
  not_found: { code: 1200, status: 404, meaning: 'No such resource for this account' },
  method_not_allowed: { code: 1201, status: 405, meaning: 'The method is not supported on this path' },
  conflict: { code: 1202, status: 409, meaning: 'The resource is in a state that does not allow the operation' },
  rate_limited: { code: 1300, status: 429, meaning: 'Too many requests; retry after the Retry-After seconds' },
  quota_exceeded: {
    code: 1301,
    status: 429,
    meaning: "A monthly quota of the account (hits or rows) is used up; Retry-After: the next month's start",
  },
  internal: { code: 1500, status: 500, meaning: 'Unexpected server error; details are in the server log' },
  unavailable: {
    code: 1503,
    status: 503,
    meaning: 'A dependency (database, broker) is unavailable; retry after the Retry-After seconds',
  },
} as const;

export type ErrorName = keyof typeof ERROR_CODES;

/** The seed's Error object. */
export const ErrorBody = z
  .object({
    error: z.number().int().min(-2147483648).max(2147483647).describe('Numeric error code (see the code table)'),
    message: z.string().describe('Error text'),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;
