import type { Request, RequestHandler } from 'express';
import type { z } from 'zod';
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

/** Parses with a contracts schema; every bad field is named in one validation_failed error. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  kind: 'validation_failed' | 'invalid_parameter' = 'validation_failed',
): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.join(', ')}`;
    const path = issue.path.join('.') || 'body';
    return `${path}: ${issue.message}`;
  });
  throw new ApiError(kind, problems.join('; '));
}
