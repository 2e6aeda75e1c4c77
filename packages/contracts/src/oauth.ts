import { z } from 'zod';

/**
 * API scopes: `read` for GET operations, `write` for tracing, uploads and other changes,
 * `admin` for administering the account's API clients and webhook endpoints. `admin` is
 * granted only to the account's own credentials: a client_credentials client created with
 * it, or a user signed in to the web console; never to a third-party app (docs/oauth.md).
 */
export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** client_id of the web console: a public client (PKCE) the auth server registers on start. */
export const CONSOLE_CLIENT_ID = 'skiptrace-console';

export const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().describe('Access-token lifetime in seconds (3600)'),
    refresh_token: z.string().optional().describe('Authorization-code and refresh grants only'),
    scope: z.string().optional(),
  })
  .meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof TokenResponse>;

/**
 * OAuth error codes. The first five are the seed's; the rest are RFC 6749/7009/7591
 * codes the server also emits (documented in docs/oauth.md).
 */
export const OAUTH_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'access_denied',
  'invalid_scope',
  'unsupported_grant_type',
  'unsupported_response_type',
  'invalid_client_metadata',
  'invalid_redirect_uri',
  'invalid_token',
  'server_error',
  'temporarily_unavailable',
  'rate_limited',
] as const;

export const OAuthError = z
  .object({
    error: z.string().describe(`One of: ${OAUTH_ERRORS.join(', ')}`),
    error_description: z.string(),
  })
  .meta({ id: 'OAuthError' });
export type OAuthError = z.infer<typeof OAuthError>;
