/** Types, constants and row mapping of accounts, users and clients. */
import { parseScopes, SCOPES, type Role } from '@skiptrace/contracts';

export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';
export const GRANT_TYPES: readonly GrantType[] = ['authorization_code', 'refresh_token', 'client_credentials'];
/** API scopes a client may be given (SCOPES of @skiptrace/contracts: read, write, admin). */
export const API_SCOPES = SCOPES;

export interface Account {
  id: string;
  name: string;
  createdAt: Date;
}
export interface User {
  id: string;
  accountId: string;
  email: string;
  /** The user's role in the account (docs/oauth.md, roles). */
  role: Role;
  createdAt: Date;
  /** When their sign-ins were last ended (a password reset); sign-ins before it are void. */
  signedOutAt?: Date;
}
export interface UserRow {
  id: string;
  account_id: string;
  email: string;
  role: Role;
  created_at: Date;
  signed_out_at?: Date | null;
}
export const toUser = (r: UserRow): User => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  role: r.role,
  createdAt: r.created_at,
  ...(r.signed_out_at ? { signedOutAt: r.signed_out_at } : {}),
});
export interface ClientRecord {
  clientId: string;
  accountId: string;
  name: string;
  grantTypes: string[];
  redirectUris: string[];
  scopes: string;
  /** Null for public clients (PKCE, no secret). */
  secretHash: string | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
}
export interface CreateClientInput {
  name: string;
  /** Absent: a new account named after the client is created. */
  accountId?: string;
  grantTypes?: string[];
  redirectUris?: string[];
  /** Space-separated; default "read write" (TRACE_SCOPES: what a trace needs). */
  scopes?: string;
  /** Public client: no secret, PKCE required. */
  public?: boolean;
  /** Other RFC 7591 metadata kept with the client. */
  metadata?: Record<string, unknown>;
  /** Preset id and secret (registration, demo); generated when absent. */
  clientId?: string;
  clientSecret?: string;
}

export class AccountError extends Error {
  override name = 'AccountError';
}

export interface ClientRow {
  client_id: string;
  account_id: string;
  name: string;
  grant_types: string[];
  redirect_uris: string[];
  scopes: string;
  secret_hash: string | null;
  metadata: Record<string, unknown>;
  created_at: Date;
}
export const toClient = (r: ClientRow): ClientRecord => ({
  clientId: r.client_id,
  accountId: r.account_id,
  name: r.name,
  grantTypes: r.grant_types,
  redirectUris: r.redirect_uris,
  scopes: r.scopes,
  secretHash: r.secret_hash,
  metadata: r.metadata,
  createdAt: r.created_at,
});

export function validateScopes(text: string): string {
  const { scopes, unknown } = parseScopes(text);
  if (unknown.length || !scopes.length)
    throw new AccountError(
      `scopes must be among: ${API_SCOPES.join(' ')}${unknown.length ? ` (unknown: ${unknown.join(' ')})` : ''}`,
    );
  return scopes.join(' ');
}
