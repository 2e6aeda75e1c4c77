/**
 * Tells "the database is not reachable right now" (→ DatabaseUnavailableError, HTTP 503)
 * apart from errors in the statement itself, which are passed through untouched so
 * callers can still read SQLSTATE codes such as 23505 (unique violation).
 */
import { DatabaseUnavailableError } from './database.port.ts';

/** Socket-level errno codes of a refused, reset or unreachable connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs: 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now
 * (starting up / shutting down), 53300 too many connections; class 08 is connection exception.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres reports some lost connections only by message. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
];

/**
 * Duck-typed rather than `instanceof Error`: socket errors are created in Node's own realm,
 * which differs from the caller's under VM sandboxes such as Jest's.
 */
export function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof DatabaseUnavailableError) return true;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) return true;
  }
  if (Array.isArray(errors) && errors.some(isUnavailable)) return true; // AggregateError
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.includes(text));
}

/** Wraps connection errors in DatabaseUnavailableError (with cause); others unchanged. */
export function toDatabaseError(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || !isUnavailable(error)) return error;
  const reason = String((error as { message?: unknown }).message ?? error);
  return new DatabaseUnavailableError(`PostgreSQL is unavailable: ${reason}`, { cause: error });
}

/** Awaits op and rethrows its failure through toDatabaseError. */
export async function mapErrors<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (error) {
    throw toDatabaseError(error);
  }
}
