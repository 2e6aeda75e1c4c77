import type { z } from 'zod';
import type { ErrorName } from '../errors.ts';
import { LEAST_ROLE_OF_SCOPE, type Role } from '../members.ts';
import type { Scope } from '../oauth.ts';

/**
 * One HTTP route of the API, declared once: the router validates its input with these
 * schemas (@skiptrace/runtime `mountRoute`) and the OpenAPI document is generated from
 * them (openapi.ts), so the documented shape is the enforced one.
 */
export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';
export type ApiScope = Scope;

export interface ResponseSpec {
  description: string;
  /** application/json body. */
  schema?: z.ZodType;
  /** Other bodies by media type (the CSV and NDJSON export). */
  content?: Record<string, z.ZodType>;
  /** Response headers, e.g. X-Next-Cursor. */
  headers?: z.ZodObject;
  example?: unknown;
}

export interface RouteSpec {
  method: HttpMethod;
  /** Relative to /api/v1, with OpenAPI templates: `/plants/{id}`. */
  path: `/${string}`;
  operationId: string;
  summary: string;
  description?: string;
  /** Group in the reference (one of API_TAGS). */
  tag: string;
  /** Scope the bearer token needs. */
  scope: ApiScope;
  /** Least role of the caller (members.ts); default by scope: read viewer, write member, admin admin. */
  role?: Role;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers, in their canonical spelling (`Idempotency-Key`). */
  headers?: z.ZodObject;
  /** application/json request body, parsed and validated before the handler runs. */
  body?: z.ZodType;
  /** A body the handler streams itself (batch upload), by media type; documented, not pre-parsed. */
  rawBody?: Record<string, z.ZodType>;
  responses: Record<number, ResponseSpec>;
  /**
   * Errors the route itself answers with. Every route also answers unauthorized (401),
   * insufficient_scope (403), rate_limited (429) and unavailable (503).
   */
  errors: readonly ErrorName[];
}

/** Keeps the literal type of a spec, so handlers get typed params, query and body. */
export const defineRoute = <const S extends RouteSpec>(spec: S): S => spec;

/** The least role a route needs: its own, else the one of its scope. */
export const leastRoleOf = (spec: Pick<RouteSpec, 'scope' | 'role'>): Role =>
  spec.role ?? LEAST_ROLE_OF_SCOPE[spec.scope];

/** Errors every authenticated route can answer with. */
export const COMMON_ERRORS: readonly ErrorName[] = [
  'unauthorized',
  'insufficient_scope',
  'insufficient_role',
  'rate_limited',
  'unavailable',
];

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

/** What a handler receives after validation. */
export interface RouteInput<S extends RouteSpec> {
  params: Out<S['params']>;
  query: Out<S['query']>;
  headers: Out<S['headers']>;
  body: Out<S['body']>;
}
