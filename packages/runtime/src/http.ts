import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { ApiError, unavailable } from './api-error.ts';

/** Who is calling: from a verified access token. Data is scoped by accountId. */
export interface AuthContext {
  accountId: string;
  clientId: string;
  /** Token subject: the user id (authorization code) or the client id (client credentials). */
  subject: string;
  scopes: string[];
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      id: string;
      log: Logger;
      /** Set by the gateway's bearer middleware once the access token is verified. */
      auth?: AuthContext;
    }
  }
}

/** Gives every request an id (taken from X-Request-Id when sane) and a child logger. */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    req.id = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    req.log = logger.child({ reqId: req.id });
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (res.statusCode >= 500)
        req.log.error({ method: req.method, url: req.originalUrl, status: res.statusCode, ms });
      else req.log.debug({ method: req.method, url: req.originalUrl, status: res.statusCode, ms }, 'request');
    });
    next();
  };
}

/** Errors raised by dependencies that mean "try again later" rather than "bug". */
const UNAVAILABLE_NAMES = new Set(['DatabaseUnavailableError', 'BusUnavailableError']);

function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  const e = err as { type?: string; status?: number; name?: string; message?: string };
  // body-parser errors
  if (e?.type === 'entity.parse.failed') return new ApiError('invalid_json', 'request body is not valid JSON');
  if (e?.type === 'entity.too.large') return new ApiError('payload_too_large', 'request body is too large');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return new ApiError('unsupported_media_type', e.message ?? 'unsupported encoding');
  if (e?.type === 'request.aborted') return new ApiError('validation_failed', 'request body was aborted');
  if (e?.name && UNAVAILABLE_NAMES.has(e.name))
    return unavailable(e.name.startsWith('Bus') ? 'the broker' : 'the database');
  return undefined;
}

/** The one error middleware: every failure leaves as the seed's Error object. */
export function errorHandler(): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const apiError = toApiError(err);
    if (!apiError) {
      (req.log ?? console).error({ err }, 'unhandled error');
    }
    const out = apiError ?? new ApiError('internal', 'internal server error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(out.status).set(out.headers).json(out.body());
  };
}

/** Requests that match no route. */
export function routeNotFound(): RequestHandler {
  return (req, _res, next) => next(new ApiError('not_found', `no route for ${req.method} ${req.path}`));
}
