import {
  leastRoleOf,
  roleAtLeast,
  roleOfScopes,
  type ApiScope,
  type Role,
  type RouteInput,
  type RouteSpec,
} from '@skiptrace/contracts';
import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { ApiError } from './api-error.ts';

/**
 * Registers a route of @skiptrace/contracts on an Express router: the scope check, then
 * path parameters, query and headers (invalid_parameter) and the JSON body
 * (unsupported_media_type, validation_failed) are validated with the route's own schemas —
 * the ones the OpenAPI document is generated from — before the handler runs.
 */
export interface RouteMount {
  router: Router;
  requireScope(scope: ApiScope): RequestHandler;
  /** Where the router is mounted below /api/v1 ('/webhooks'); its routes' paths start with it. */
  base?: string;
}

export type RouteHandler<S extends RouteSpec> = (input: RouteInput<S>, req: Request, res: Response) => unknown;

/** One message naming every bad field: `zip_code: must be a ZIP5 or ZIP+4 code; city: …`. */
export function describeIssues(error: z.ZodError, subject?: string): string {
  return error.issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.join(', ')}`;
      const path = issue.path.length ? issue.path.join('.') : subject;
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

function parse<S extends z.ZodType>(schema: S, value: unknown, kind: 'invalid_parameter' | 'validation_failed') {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new ApiError(kind, describeIssues(parsed.error, kind === 'validation_failed' ? 'body' : undefined));
  return parsed.data;
}

/** `/plants/{id}` below `base` -> the Express path `/plants/:id`. */
export function expressPath(path: string, base = ''): string {
  const prefix = base === '/' ? '' : base.replace(/\/$/, '');
  if (prefix && !path.startsWith(`${prefix}/`) && path !== prefix) {
    throw new Error(`route ${path} is outside the router's base ${prefix}`);
  }
  return (path.slice(prefix.length) || '/').replace(/\{([A-Za-z_]\w*)\}/g, ':$1');
}

function headersOf(spec: RouteSpec, req: Request): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(spec.headers?.shape ?? {}).map((name) => [name, req.get(name)]));
}

/**
 * 403 insufficient_role unless the caller's role is the route's least role or above: a
 * user's role from the token (req.auth.role), an API client's from its scopes
 * (roleOfScopes: admin with the admin scope, else member). Mounted after the scope check.
 */
export function requireRole(least: Role): RequestHandler {
  return (req, _res, next) => {
    const auth = req.auth;
    if (!auth) return next();
    const role = auth.role ?? roleOfScopes(auth.scopes);
    if (roleAtLeast(role, least)) return next();
    next(new ApiError('insufficient_role', `this operation needs the ${least} role or above; you are ${role}`));
  };
}

export function mountRoute<S extends RouteSpec>(mount: RouteMount, spec: S, handler: RouteHandler<S>): void {
  const validate: RequestHandler = (req, res, next) => {
    const input = {
      params: spec.params ? parse(spec.params, req.params, 'invalid_parameter') : undefined,
      query: spec.query ? parse(spec.query, req.query, 'invalid_parameter') : undefined,
      headers: spec.headers ? parse(spec.headers, headersOf(spec, req), 'invalid_parameter') : undefined,
      body: undefined as unknown,
    };
    if (spec.body) {
      if (!req.is('application/json')) {
        throw new ApiError('unsupported_media_type', 'Content-Type must be application/json');
      }
      if (
        spec.body instanceof z.ZodObject &&
        (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))
      ) {
        throw new ApiError('validation_failed', 'request body must be a JSON object');
      }
      input.body = parse(spec.body, req.body, 'validation_failed');
    }
    res.locals.routeInput = input;
    next();
  };
  const run: RequestHandler = async (req, res) => {
    await handler(res.locals.routeInput as RouteInput<S>, req, res);
  };
  mount.router[spec.method](
    expressPath(spec.path, mount.base),
    mount.requireScope(spec.scope),
    requireRole(leastRoleOf(spec)),
    validate,
    run,
  );
}
