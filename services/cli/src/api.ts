/**
 * The HTTP side of the CLI: where the API is, and a bearer token for it — given
 * (--token-file, SKIPTRACE_TOKEN, --token) or obtained with client_credentials from a
 * client id and secret (SKIPTRACE_CLIENT_ID / SKIPTRACE_CLIENT_SECRET or their options).
 */
import { apiBaseUrl, createApiClient, toApiError, type ApiClient } from '@skiptrace/client';
import { optionalString, UsageError, type Options, type Values } from './command.ts';
import { findSecret, readSecretFile } from './secrets.ts';

export const API_OPTIONS: Options = {
  api: {
    type: 'string',
    value: 'URL',
    description: 'server or API base, with or without /api/v1 (default $SKIPTRACE_API or http://localhost:8080)',
  },
  'token-file': { type: 'string', value: 'FILE', description: 'bearer access token from a file (or SKIPTRACE_TOKEN)' },
  token: { type: 'string', value: 'T', description: 'bearer access token (visible in ps; prefer the two above)' },
  'client-id': {
    type: 'string',
    value: 'ID',
    description: 'get a token with client_credentials (or SKIPTRACE_CLIENT_ID)',
  },
  'client-secret-file': {
    type: 'string',
    value: 'FILE',
    description: "that client's secret from a file (or SKIPTRACE_CLIENT_SECRET, or a prompt)",
  },
  auth: {
    type: 'string',
    value: 'URL',
    description: 'OAuth server when not the API server (default $SKIPTRACE_AUTH_URL, else the API server)',
  },
};

export const API_NOTES = [
  'environment: SKIPTRACE_API, SKIPTRACE_TOKEN, SKIPTRACE_CLIENT_ID, SKIPTRACE_CLIENT_SECRET, SKIPTRACE_AUTH_URL',
];

export interface ApiContext {
  api: ApiClient;
  /** The API base ending in /api/v1. */
  base: string;
  token: string;
}

async function clientCredentialsToken(authUrl: string, clientId: string, secret: string, scope: string) {
  const res = await fetch(`${authUrl.replace(/\/+$/, '')}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope }),
  });
  const body = (await res.json().catch(() => undefined)) as { access_token?: string } | undefined;
  if (!res.ok || !body?.access_token) throw toApiError(res, body);
  return body.access_token;
}

/** Builds the typed client for a command that needs `scope` (space-separated when several). */
export async function connect(
  values: Values,
  scope: 'read' | 'write' | 'read write' | 'admin',
  env = process.env,
): Promise<ApiContext> {
  const base = apiBaseUrl(optionalString(values, 'api') ?? env.SKIPTRACE_API ?? 'http://localhost:8080');
  const tokenFile = optionalString(values, 'token-file');
  let token = tokenFile ? await readSecretFile(tokenFile) : (env.SKIPTRACE_TOKEN ?? optionalString(values, 'token'));
  if (!token) {
    const clientId = optionalString(values, 'client-id') ?? env.SKIPTRACE_CLIENT_ID;
    if (!clientId) {
      throw new UsageError(
        'a bearer token is required: --token-file, SKIPTRACE_TOKEN, or a client (--client-id / SKIPTRACE_CLIENT_ID)',
      );
    }
    const secret = await findSecret({
      label: 'client secret',
      file: optionalString(values, 'client-secret-file'),
      envName: 'SKIPTRACE_CLIENT_SECRET',
      env,
    });
    if (!secret)
      throw new UsageError('the client secret is required: --client-secret-file FILE or SKIPTRACE_CLIENT_SECRET');
    const authUrl = optionalString(values, 'auth') ?? env.SKIPTRACE_AUTH_URL ?? base.replace(/\/api\/v1$/, '');
    token = await clientCredentialsToken(authUrl, clientId, secret, scope);
  }
  return { api: createApiClient({ baseUrl: base, token }), base, token };
}
