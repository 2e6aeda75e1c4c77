import { z } from 'zod';

export { parseScopes, SCOPES, TRACE_SCOPES, type Scope } from './scopes.ts';

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
