/**
 * Sign-in as a public OAuth client of our own server: authorization code with PKCE. Tokens
 * live only in this module's memory (never in storage); the PKCE verifier and state wait
 * in sessionStorage for the one redirect round trip. A reload signs in again, silently
 * while the server's session lasts. The access token is refreshed a minute before expiry
 * and once more on a 401.
 */
import * as oauth from 'oauth4webapi';

export interface ConsoleConfig {
  issuer: string;
  clientId: string;
  apiBase: string;
  sampleCsv: string | null;
}

interface Tokens {
  access: string;
  refresh?: string;
  /** Epoch ms. */
  expiresAt: number;
}

const PENDING = 'skiptrace.console.pkce';
// admin: the console administers the account's API clients and webhook endpoints; the auth
// server grants it to this first-party client only (docs/oauth.md).
const SCOPE = 'read write admin';
const REFRESH_MARGIN_MS = 60_000;

let config: ConsoleConfig;
let server: oauth.AuthorizationServer;
let client: oauth.Client;
let tokens: Tokens | undefined;
let refreshing: Promise<void> | undefined;

const redirectUri = () => new URL('callback', new URL(import.meta.env.BASE_URL, location.origin)).href;
// http://localhost is a legitimate issuer for a local install; oauth4webapi refuses plain HTTP unless told.
const httpOptions = () => (config.issuer.startsWith('http:') ? { [oauth.allowInsecureRequests]: true } : {});

export async function initAuth(cfg: ConsoleConfig): Promise<void> {
  config = cfg;
  client = { client_id: cfg.clientId };
  const issuer = new URL(cfg.issuer);
  const response = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...httpOptions() });
  server = await oauth.processDiscoveryResponse(issuer, response);
}

export const getConfig = () => config;

/** Where the user is, relative to the console's base (what signIn returns to). */
const here = () => location.pathname.slice(import.meta.env.BASE_URL.length - 1) + location.search;

/** Signs in again and comes back to the current page. */
export const signInHere = () => signIn(here());

/** Sends the browser to the login page; comes back to /console/callback. */
export async function signIn(returnTo: string): Promise<never> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, returnTo }));
  const url = new URL(server.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: redirectUri(),
    scope: SCOPE,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url.href);
  return new Promise<never>(() => undefined);
}

function keep(result: oauth.TokenEndpointResponse): void {
  tokens = {
    access: result.access_token,
    refresh: result.refresh_token ?? tokens?.refresh,
    expiresAt: Date.now() + (result.expires_in ?? 3600) * 1000,
  };
}

export class SignInError extends Error {
  override name = 'SignInError';
}

/** Finishes the redirect: exchanges the code, returns where the user was going. */
export async function completeSignIn(): Promise<string> {
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null') as {
    verifier: string;
    state: string;
    returnTo: string;
  } | null;
  sessionStorage.removeItem(PENDING);
  if (!pending) throw new SignInError('This sign-in link has already been used. Sign in again.');
  const current = new URL(location.href);
  if (current.searchParams.get('error')) {
    throw new SignInError(current.searchParams.get('error_description') ?? current.searchParams.get('error')!);
  }
  const params = oauth.validateAuthResponse(server, client, current, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(
    server,
    client,
    oauth.None(),
    params,
    redirectUri(),
    pending.verifier,
    httpOptions(),
  );
  keep(await oauth.processAuthorizationCodeResponse(server, client, response));
  return pending.returnTo;
}

async function refresh(): Promise<void> {
  if (!tokens?.refresh) throw new SignInError('session expired');
  const response = await oauth.refreshTokenGrantRequest(server, client, oauth.None(), tokens.refresh, httpOptions());
  keep(await oauth.processRefreshTokenResponse(server, client, response));
}

/** One refresh at a time, whoever asks. */
export function refreshOnce(): Promise<void> {
  refreshing ??= refresh().finally(() => (refreshing = undefined));
  return refreshing;
}

export const isSignedIn = () => tokens !== undefined;

/** A valid access token, refreshed when it is about to expire; signs in again when refresh fails. */
export async function accessToken(): Promise<string> {
  if (!tokens) return signInHere();
  if (Date.now() > tokens.expiresAt - REFRESH_MARGIN_MS) {
    try {
      await refreshOnce();
    } catch {
      tokens = undefined;
      return signInHere();
    }
  }
  return tokens.access;
}

/** Claims of the current access token (for display only; the API checks the signature). */
export function tokenClaims(): { sub?: string; account_id?: string; scope?: string; role?: string } {
  if (!tokens) return {};
  const payload = tokens.access.split('.')[1] ?? '';
  return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, string>;
}

/** Where the auth server sends the browser after sign-out (registered with the client). */
export const signedOutUri = () => new URL('signed-out', new URL(import.meta.env.BASE_URL, location.origin)).href;

/** Forgets the tokens, revokes the refresh token, and ends the server session (it asks to confirm). */
export async function signOut(): Promise<void> {
  const refreshToken = tokens?.refresh;
  tokens = undefined;
  if (refreshToken && server.revocation_endpoint) {
    await oauth.revocationRequest(server, client, oauth.None(), refreshToken, httpOptions()).catch(() => undefined);
  }
  const url = new URL(server.end_session_endpoint ?? config.issuer);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('post_logout_redirect_uri', signedOutUri());
  location.assign(url.href);
}
