/**
 * Typed client of the skip-trace API: openapi-fetch over the types openapi-typescript
 * generates from the OpenAPI document (src/generated/openapi.ts, written on install and
 * before every type check). Works in Node 24 and in browsers.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './generated/openapi.ts';

export type { components, operations, paths };
/** Every component schema of the document, e.g. `Schemas['BatchStatus']`. */
export type Schemas = components['schemas'];
export type ApiClient = Client<paths>;

export interface ApiClientOptions {
  /** Server or API base: `http://localhost:8080` and `http://localhost:8080/api/v1` both work. */
  baseUrl: string;
  /** Bearer access token, or a function asked before every request (so a refreshed token is used). */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  /** fetch implementation (tests, proxies); the global one by default. */
  fetch?: typeof globalThis.fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/** The API base ending in /api/v1, from a server base with or without it (trailing slashes ignored). */
export function apiBaseUrl(base: string): string {
  const trimmed = base.trim().replace(/\/+$/, '');
  return /\/api\/v1$/.test(trimmed) ? trimmed : `${trimmed}/api/v1`;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const client = createClient<paths>({
    baseUrl: apiBaseUrl(options.baseUrl),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const { token } = options;
  if (token !== undefined) {
    const bearer: Middleware = {
      async onRequest({ request }) {
        const value = typeof token === 'function' ? await token() : token;
        if (value) request.headers.set('Authorization', `Bearer ${value}`);
        return request;
      },
    };
    client.use(bearer);
  }
  return client;
}

/** An HTTP error answered by the API: its status and the Error body's code and message. */
export class ApiRequestError extends Error {
  override name = 'ApiRequestError';
  readonly status: number;
  /** Numeric code of the Error body (see the code table of the document), when there was one. */
  readonly code: number | undefined;
  constructor(status: number, message: string, code?: number) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Builds the error for a failed response from whatever body it carried. */
export function toApiError(response: Response, body: unknown): ApiRequestError {
  if (body && typeof body === 'object') {
    const b = body as { error?: unknown; message?: unknown; error_description?: unknown };
    const message =
      typeof b.message === 'string'
        ? b.message
        : typeof b.error_description === 'string'
          ? b.error_description
          : undefined;
    if (message)
      return new ApiRequestError(response.status, message, typeof b.error === 'number' ? b.error : undefined);
  }
  const text = typeof body === 'string' && body.trim() ? body.trim().slice(0, 200) : response.statusText;
  return new ApiRequestError(response.status, text || `HTTP ${response.status}`);
}

/**
 * The data of a successful openapi-fetch result, or an ApiRequestError:
 * `const batch = await unwrap(api.GET('/property/skiptrace/batches/{id}', { params: { path: { id } } }))`.
 */
export async function unwrap<T>(
  pending:
    Promise<{ data?: T; error?: unknown; response: Response }> | { data?: T; error?: unknown; response: Response },
): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok || error !== undefined) throw toApiError(response, error);
  return data as T;
}
