import { ERROR_CODES, type ErrorBody, type ErrorName } from '@skiptrace/contracts';

/**
 * An error the API answers with: HTTP status and numeric code come from the contracts'
 * code table; the message is shown to the client for statuses below 500.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly kind: ErrorName;
  readonly status: number;
  readonly code: number;
  readonly headers: Record<string, string>;

  constructor(kind: ErrorName, message: string, headers: Record<string, string> = {}, options?: ErrorOptions) {
    super(message, options);
    this.kind = kind;
    this.status = ERROR_CODES[kind].status;
    this.code = ERROR_CODES[kind].code;
    this.headers = headers;
  }

  body(): ErrorBody {
    return { error: this.code, message: this.message };
  }
}

/**
 * An error of a dependency (database, broker, key-value store) that means "try again
 * later", not "bug": it carries its own answer — 503, code 1503, `Retry-After` and a
 * message naming the dependency without the internal detail, which stays in `message`
 * for the log. Each adapter package subclasses it, so the error middleware needs no list.
 */
export class DependencyUnavailableError extends Error {
  override name = 'DependencyUnavailableError';
  /** What the client is told, e.g. "the database is unavailable, retry later". */
  readonly publicMessage: string;
  readonly retryAfterSeconds: number;

  constructor(dependency: string, message: string, options?: ErrorOptions & { retryAfterSeconds?: number }) {
    super(message, options);
    this.publicMessage = `${dependency} is unavailable, retry later`;
    this.retryAfterSeconds = options?.retryAfterSeconds ?? 5;
  }

  /** The answer the API gives for this error. */
  toApiError(): ApiError {
    return new ApiError('unavailable', this.publicMessage, { 'Retry-After': String(this.retryAfterSeconds) });
  }
}

export const notFound = (what = 'resource'): ApiError => new ApiError('not_found', `${what} not found`);

export const unavailable = (what: string, retryAfterSeconds = 5): ApiError =>
  new ApiError('unavailable', `${what} is unavailable, retry later`, { 'Retry-After': String(retryAfterSeconds) });
