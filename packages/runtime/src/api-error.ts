import { ERROR_CODES, type ErrorBody, type ErrorName, type OAuthError } from '@skiptrace/contracts';
import type { Request, Response } from 'express';

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

/**
 * The OAuth server's paths (services/auth): their errors take RFC 6749's shape
 * `{error, error_description}` (docs/oauth.md), whichever app of the process answers them
 * (the input boundary and the error middleware of the one-process system and of the auth
 * service run before and after it).
 */
const OAUTH_SURFACE = /^\/(oauth|\.well-known|interaction)(?=[/?]|$)/;

/** Whether a request URL (path, or path and query) is on the OAuth server's surface. */
export const isOAuthSurface = (url: string): boolean => OAUTH_SURFACE.test(url);

/** RFC 6749's codes (and this server's `rate_limited`) for the API's; the rest are the client's `invalid_request`. */
const OAUTH_CODES: Partial<Record<ErrorName, string>> = {
  unavailable: 'temporarily_unavailable',
  internal: 'server_error',
  rate_limited: 'rate_limited',
};

/** An API error in RFC 6749's shape. */
export const oauthErrorBody = (err: ApiError): OAuthError => ({
  error: OAUTH_CODES[err.kind] ?? 'invalid_request',
  error_description: err.message,
});

/** Answers `err` in the error shape of the request's surface: the OAuth server's, or the API's Error body. */
export function sendError(req: Request, res: Response, err: ApiError): void {
  res.status(err.status).set(err.headers);
  if (OAUTH_SURFACE.test(req.originalUrl)) res.set('Cache-Control', 'no-store').json(oauthErrorBody(err));
  else res.json(err.body());
}
