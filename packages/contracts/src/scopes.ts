/**
 * The API scopes, what a trace needs of them, and their parsing. Pure (no imports): the web
 * console bundles this file.
 */
/**
 * API scopes: `read` for GET operations, `write` for tracing, uploads and other changes,
 * `admin` for administering the account's API clients and webhook endpoints. `admin` is
 * granted only to the account's own credentials: a client_credentials client created with
 * it, or a user signed in to the web console; never to a third-party app (docs/oauth.md).
 */
export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What an integrator's first trace needs, and so the scopes a new API client gets unless
 * others are chosen: `write` to send a property (POST /property/skiptrace) or upload a batch,
 * `read` to poll the result, follow the batch and download it. `admin` is never a default.
 */
export const TRACE_SCOPES = ['read', 'write'] as const satisfies readonly Scope[];

/** "read write" → ['read', 'write']; spaces or commas between; unknown names are listed in `unknown`. */
export function parseScopes(text: string): { scopes: Scope[]; unknown: string[] } {
  const names = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  const known = (name: string): name is Scope => (SCOPES as readonly string[]).includes(name);
  return { scopes: names.filter(known), unknown: names.filter((name) => !known(name)) };
}
