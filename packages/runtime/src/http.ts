import { randomUUID } from 'node:crypto';
import type { Application, ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { ERROR_CODES, type ErrorName, type Role } from '@skiptrace/contracts';
import { ApiError, DependencyUnavailableError, sendError } from './api-error.ts';

/** Who is calling: from a verified access token. Data is scoped by accountId. */
export interface AuthContext {
  accountId: string;
  clientId: string;
  /** Token subject: the user id (authorization code) or the client id (client credentials). */
  subject: string;
  scopes: string[];
  /**
   * The signed-in user's role (the token's `role` claim, lowered to the user's current role
   * by the gateway's member check); absent for an API client, which acts by its scopes.
   */
  role?: Role;
  /** The signed-in user's email (set by the gateway's member check), for the audit log. */
  email?: string;
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

/** The account an authenticated request acts for (routes behind the bearer check, which sets req.auth). */
export const accountOf = (req: Request): string => req.auth!.accountId;

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

/** Answers for errors thrown by body-parser and the router (http-errors' `status`, `type`). */
const BY_STATUS: Partial<Record<number, ErrorName>> = {
  400: 'malformed_request',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  431: 'headers_too_large',
};

function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof DependencyUnavailableError) return err.toApiError();
  const e = err as { type?: string; status?: number; code?: unknown; message?: string };
  switch (e?.type) {
    case 'entity.parse.failed':
      return new ApiError('invalid_json', 'request body is not valid JSON');
    case 'entity.not.utf8':
      return new ApiError('invalid_json', 'request body is not valid UTF-8');
    case 'entity.over.limit':
      return new ApiError('validation_failed', e.message ?? 'request body is past the JSON limits');
    case 'entity.too.large':
      return new ApiError('payload_too_large', 'request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('unsupported_media_type', e.message ?? 'unsupported encoding');
    case 'request.aborted':
      return new ApiError('malformed_request', 'request body was aborted');
    case 'request.size.invalid':
      return new ApiError('malformed_request', 'request body length does not match Content-Length');
  }
  // zlib's errors, wrapped by body-parser or not: the body is not what its Content-Encoding
  // says. Brotli's decoder errors are named ERR__ERROR_<reason> by Node (BROTLI_DECODER cut).
  if (
    typeof e?.code === 'string' &&
    (e.code.startsWith('Z_') || e.code.includes('BROTLI') || e.code.startsWith('ERR__ERROR_'))
  ) {
    return new ApiError('malformed_request', `request body does not decode as its Content-Encoding says: ${e.message}`);
  }
  const kind = typeof e?.status === 'number' ? BY_STATUS[e.status] : undefined;
  return kind ? new ApiError(kind, e.message || ERROR_CODES[kind].meaning) : undefined;
}

/** The one error middleware: every failure leaves as the seed's Error object (RFC 6749's under the OAuth server's paths). */
export function errorHandler(): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const apiError = toApiError(err);
    if (!apiError) {
      (req.log ?? console).error({ err }, 'unhandled error');
    } else if (err instanceof DependencyUnavailableError) {
      req.log?.warn({ err: err.message }, 'dependency unavailable');
    }
    const out = apiError ?? new ApiError('internal', 'internal server error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendError(req, res, out);
  };
}

/** Something that routes: an Express Router, or an app (its `router`). */
interface Routing {
  stack?: unknown[];
  router?: { stack: unknown[] };
}
interface LayerLike {
  match(path: string): false | { path: string };
  route?: { methods: Record<string, boolean | undefined> };
  handle?: { stack?: unknown[] };
}

/** Methods the routes under `stack` answer for `path` (nested routers included). */
function methodsFor(stack: readonly unknown[], path: string, into: Set<string>): void {
  for (const item of stack) {
    const layer = item as LayerLike;
    let matched: false | { path: string };
    try {
      matched = layer.match(path);
    } catch {
      continue; // an undecodable parameter matches nothing (the input boundary refuses it first)
    }
    if (!matched) continue;
    if (layer.route) {
      for (const [method, on] of Object.entries(layer.route.methods)) if (on) into.add(method.toUpperCase());
    } else if (Array.isArray(layer.handle?.stack)) {
      methodsFor(layer.handle.stack, path.slice(matched.path.length) || '/', into);
    }
  }
}

/** The methods `routings` answer on `path`, as an Allow header value (HEAD with GET). */
export function allowedMethods(routings: readonly Routing[], path: string): string[] {
  const methods = new Set<string>();
  for (const routing of routings) methodsFor(routing.stack ?? routing.router?.stack ?? [], path, methods);
  if (methods.has('_ALL')) return [];
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/**
 * Requests that match no route: 405 with `Allow` when the path exists under another method
 * (looked up in the given routers or apps, default none), 404 otherwise.
 */
export function routeNotFound(...routings: Routing[]): RequestHandler {
  return (req, _res, next) => {
    const allow = allowedMethods(routings, req.path);
    if (allow.length > 0 && !allow.includes(req.method)) {
      return next(
        new ApiError('method_not_allowed', `${req.method} is not allowed on ${req.path}; use ${allow.join(', ')}`, {
          Allow: allow.join(', '),
        }),
      );
    }
    next(new ApiError('not_found', `no route for ${req.method} ${req.path}`));
  };
}

/**
 * Ends a composition root's app: 405/404 for what no route answers (the app's own routes
 * and those of `mounted` apps count), then the error middleware.
 */
export function finishApp(app: Application, ...mounted: Routing[]): void {
  app.use(routeNotFound(app as Routing, ...mounted), errorHandler());
}
