/**
 * The oidc-provider instance (recipe: docs/oauth.md, research oauth-anchors §8). JWT access
 * tokens for the API audience via resource indicators; refresh tokens for every client with
 * the refresh_token grant, rotated on each use, not bound to the browser session; clients
 * from the clients table with scrypt-hashed secrets; no dev interactions, no DPoP.
 */
import Provider, { errors, type Adapter, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { CONSOLE_CLIENT_ID, SCOPES as API_SCOPES } from '@skiptrace/contracts';
import type { JWK } from 'jose';
import type { Logger } from '@skiptrace/runtime';
import type { Accounts } from '@skiptrace/accounts';
import type { AbuseControls } from './abuse.ts';
import { createVerifyCache, randomSecret } from '@skiptrace/accounts';
import { errorPage, logoutPage, signedOutPage } from './views.ts';
import { pinIssuerOrigin } from './issuer-origin.ts';
import { loadExistingGrant } from './first-party-grant.ts';
import type { AuthConfig } from './config.ts';

export interface ProviderDeps {
  config: AuthConfig;
  accounts: Accounts;
  abuse: AbuseControls;
  keys: JWK[];
  cookieKeys: string[];
  /** Storage of artefacts per model name; the Client model is handled here. */
  adapterFor: (name: string) => Adapter;
  clientAdapter: Adapter;
  logger: Logger;
}

/** Every scope the server knows; anything else in a request is `invalid_scope`. */
const SCOPES = ['openid', 'offline_access', ...API_SCOPES];
const KNOWN_SCOPES = new Set(SCOPES);
const ADMIN = 'admin';

/**
 * `admin` administers the account's API clients and webhook endpoints, so it goes only to
 * the account's own credentials: a client_credentials client created with it (its tokens
 * act for the client's own account), and the first-party web console for its signed-in
 * user. A third-party app acts through a user's consent (authorization_code, refresh_token)
 * and never gets it, whatever its registered `scope` says (docs/oauth.md).
 */
function mayHoldAdmin(ctx: KoaContextWithOIDC, clientId: string | undefined): boolean {
  if (clientId === CONSOLE_CLIENT_ID) return true;
  return ctx.oidc.route === 'token' && ctx.oidc.params?.grant_type === 'client_credentials';
}

/**
 * oidc-provider passes scopes it does not know through and the resource server then drops
 * them silently (`read write email` → `read write`). RFC 6749 §3.3/§5.2 and docs/oauth.md
 * say invalid_scope; so does asking for `admin` where it cannot be granted. Called from the
 * resource-indicator hooks, which every authorization, PAR and token request runs after its
 * parameters are parsed and its client is known.
 */
function rejectUngrantableScopes(ctx: KoaContextWithOIDC, clientId: string | undefined): void {
  const requested = ctx.oidc.params?.scope;
  if (typeof requested !== 'string') return;
  const scopes = requested.split(' ');
  const unknown = scopes.filter((scope) => scope && !KNOWN_SCOPES.has(scope));
  if (unknown.length) throw new errors.InvalidScope(`unknown scope requested: ${unknown.join(' ')}`, unknown.join(' '));
  if (scopes.includes(ADMIN) && !mayHoldAdmin(ctx, clientId))
    throw new errors.InvalidScope(
      'the admin scope is granted only to client_credentials clients created with it and to the web console, never through a consent',
      ADMIN,
    );
}

/** The API scopes a client may be granted in this request: its registered ones, `admin` only where it may hold it. */
function grantableScope(ctx: KoaContextWithOIDC, client: { clientId: string; scope?: string }): string {
  const registered = (client.scope ?? 'read').split(' ').filter(Boolean);
  return registered.filter((scope) => scope !== ADMIN || mayHoldAdmin(ctx, client.clientId)).join(' ');
}

/** 429 in oidc-provider's own error shape, so its endpoints answer it as JSON. */
function tooManyFailures(wait: number): Error {
  const err = new errors.OIDCProviderError(429, 'rate_limited');
  err.error_description = `too many failed client authentications from this address; retry in ${wait} seconds`;
  return err;
}

export function createProvider(deps: ProviderDeps): Provider {
  const { config, accounts } = deps;
  const adapters = new Map<string, Adapter>();
  const adapter = (name: string): Adapter => {
    if (name === 'Client') return deps.clientAdapter;
    let found = adapters.get(name);
    if (!found) adapters.set(name, (found = deps.adapterFor(name)));
    return found;
  };
  const configuration: Configuration = {
    adapter,
    clients: [],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      id_token_signed_response_alg: 'ES256',
    },
    extraClientMetadata: {
      properties: ['account_id'],
      validator(_ctx, key, value) {
        if (key === 'account_id' && value !== undefined && (typeof value !== 'string' || !value))
          throw new errors.InvalidClientMetadata('account_id must be a non-empty string');
      },
    },
    // read, write and admin are also listed here so a client's `scope` metadata restricts
    // them (invalid_scope when a client asks for more than it was given).
    scopes: SCOPES,
    claims: { openid: ['sub'], email: ['email'] },
    responseTypes: ['code'],
    routes: {
      authorization: '/oauth/authorize',
      token: '/oauth/token',
      jwks: '/oauth/jwks',
      revocation: '/oauth/revoke',
      introspection: '/oauth/introspect',
      registration: '/oauth/register',
      userinfo: '/oauth/userinfo',
      end_session: '/oauth/logout',
    },
    jwks: { keys: deps.keys as Configuration['jwks'] extends { keys: infer K } | undefined ? K : never },
    cookies: { keys: deps.cookieKeys },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      // A client may introspect and revoke only the tokens issued to itself: tokens of
      // other clients (and so of other accounts) are none of its business. The library's
      // default would let any confidential client introspect any token.
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => {
          if (token.clientId === client.clientId) return true;
          throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
        },
      },
      userinfo: { enabled: false },
      // Our own pages: the library's defaults load a web font from a third party.
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          ctx.type = 'html';
          ctx.set('Cache-Control', 'no-store');
          ctx.body = logoutPage({ form });
        },
        async postLogoutSuccessSource(ctx) {
          ctx.type = 'html';
          ctx.body = signedOutPage();
        },
      },
      dPoP: { enabled: false },
      registration: config.adminToken
        ? {
            enabled: true,
            initialAccessToken: config.adminToken,
            issueRegistrationAccessToken: false,
            idFactory: () => `cli_${randomSecret(12)}`,
          }
        : { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource(ctx, client) {
          rejectUngrantableScopes(ctx, client?.clientId);
          return config.apiAudience;
        },
        useGrantedResource: () => true,
        getResourceServerInfo(ctx, indicator, client) {
          rejectUngrantableScopes(ctx, client.clientId);
          if (indicator !== config.apiAudience) throw new errors.InvalidTarget();
          return {
            scope: grantableScope(ctx, client),
            audience: config.apiAudience,
            accessTokenTTL: config.accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    pkce: { required: (_ctx, client) => client.tokenEndpointAuthMethod === 'none' },
    ttl: {
      AccessToken: config.accessTokenTtl,
      ClientCredentials: config.accessTokenTtl,
      AuthorizationCode: 60,
      RefreshToken: config.refreshTokenTtl,
      Grant: config.refreshTokenTtl,
      Session: 14 * 24 * 3600,
      Interaction: 3600,
      IdToken: 3600,
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    // account_id: the tenant the API scopes data by; role: a signed-in user's role in it
    // (docs/oauth.md, roles) — read again on every refresh, so a changed role arrives with
    // the next token. A client_credentials token has no role: its scopes govern it.
    async extraTokenClaims(_ctx, token) {
      const userId = 'accountId' in token ? token.accountId : undefined;
      if (userId) {
        const user = await accounts.findUser(userId);
        return user ? { account_id: user.accountId, role: user.role } : undefined;
      }
      const accountId = (await accounts.findClient(token.clientId!))?.accountId;
      return accountId ? { account_id: accountId } : undefined;
    },
    // A removed user has no account: their sessions and refresh tokens end. A password reset
    // (users.signed_out_at) voids the sign-ins before it: a token's or session's auth time.
    async findAccount(ctx, sub, token) {
      const user = await accounts.findUser(sub);
      if (!user) return undefined;
      if (user.signedOutAt) {
        const authTime = token && 'authTime' in token ? token.authTime : ctx.oidc?.session?.loginTs;
        if (authTime === undefined || authTime < Math.floor(user.signedOutAt.getTime() / 1000)) return undefined;
      }
      return { accountId: user.id, claims: () => ({ sub: user.id, email: user.email }) };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // The first-party console's sign-ins come with their grant (no consent page); every
    // other client's need the user's consent (first-party-grant.ts).
    loadExistingGrant,
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-store');
      const message = out.error_description ?? 'The request could not be completed.';
      ctx.body = errorPage({ title: 'Sign-in request rejected', message: `${message} (${out.error})` });
    },
  };
  const provider = new Provider(config.issuer, configuration);
  if (config.trustProxy) provider.proxy = true;
  // Every URL the provider builds comes from the configured issuer, never from the request.
  pinIssuerOrigin(provider, config.issuer);

  // Client secrets are stored as scrypt hashes (client-adapter.ts); compare against the hash.
  // Failures are limited per client and source address (abuse.ts): each attempt reserves its
  // place atomically before the (costly) comparison, so a pair past its limit is refused
  // without one, even in a parallel burst; other addresses of the client are unaffected.
  const verifier = createVerifyCache();
  const { abuse } = deps;
  provider.Client.prototype.compareClientSecret = async function compareClientSecret(
    this: { clientId: string; clientSecret?: string },
    actual: string,
  ) {
    const ctx = Provider.ctx;
    const ip = ctx?.ip ?? 'unknown';
    // A secret this process already verified for this hash is the client's own: no attempt
    // to limit (a burst of a real client's parallel requests must not reserve its way to 429).
    if (this.clientSecret && verifier.known(actual, this.clientSecret)) return true;
    const wait = await abuse.reserveClientAuth(this.clientId, ip);
    if (wait) {
      ctx?.set('Retry-After', String(wait));
      throw tooManyFailures(wait);
    }
    const ok = this.clientSecret ? await verifier.verify(actual, this.clientSecret) : false;
    if (ok) await abuse.clientAuthSucceeded(this.clientId, ip);
    return ok;
  } as unknown as (actual: string) => boolean;

  const log = deps.logger;
  provider.on('server_error', (_ctx: KoaContextWithOIDC, err: Error) => log.error({ err }, 'oidc server error'));
  provider.on('grant.error', (_ctx: KoaContextWithOIDC, err: Error) => log.debug({ err: err.message }, 'grant error'));
  return provider;
}
