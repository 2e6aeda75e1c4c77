import type { Request, RequestHandler } from 'express';
import { ApiError, type AuthContext } from '@skiptrace/runtime';

/**
 * Default scope check for the webhooks router (the gateway's bearer middleware sets
 * req.auth before it runs). @skiptrace/bearer's requireScope is a method of a configured
 * bearer instance, so the gateway may pass it in; this is the same rule without one.
 */
export function requireScope(scope: 'read' | 'write'): RequestHandler {
  return (req, _res, next) => {
    if (!req.auth) return next(new ApiError('unauthorized', 'a bearer access token is required'));
    if (!req.auth.scopes.includes(scope))
      return next(new ApiError('insufficient_scope', `this operation needs the ${scope} scope`));
    next();
  };
}

export function auth(req: Request): AuthContext {
  if (!req.auth) throw new ApiError('unauthorized', 'a bearer access token is required');
  return req.auth;
}
