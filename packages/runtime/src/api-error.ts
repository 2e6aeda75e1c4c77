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

  constructor(kind: ErrorName, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.kind = kind;
    this.status = ERROR_CODES[kind].status;
    this.code = ERROR_CODES[kind].code;
    this.headers = headers;
  }

  body(): ErrorBody {
    return { error: this.code, message: this.message };
  }
}

export const notFound = (what = 'resource'): ApiError => new ApiError('not_found', `${what} not found`);

export const unavailable = (what: string, retryAfterSeconds = 5): ApiError =>
  new ApiError('unavailable', `${what} is unavailable, retry later`, { 'Retry-After': String(retryAfterSeconds) });
