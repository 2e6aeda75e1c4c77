/**
 * Koa middleware inside oidc-provider (post-processing, after its router ran):
 * - grant type not registered for the client → `unauthorized_client` (the provider says
 *   invalid_request; RFC 6749 §5.2 and the seed say unauthorized_client);
 * - per-client token rate limit → 429 `rate_limited` with Retry-After. The client is only
 *   known once the provider parsed the body, so the limit is applied to the answer: the
 *   request over the limit is refused, its work discarded. Only requests whose client
 *   authenticated count (a wrong secret is `invalid_client`, a refused pair `rate_limited`;
 *   those are limited per client and address in compareClientSecret, provider.ts). The
 *   per-IP limit runs earlier, in Express, before any client authentication work.
 * - RFC 7591 registration answers carry the client's account_id.
 * - a path or method the provider does not serve: its router leaves a bare 404 ("Not
 *   Found" as text); answered instead in the OAuth error shape, 405 with `Allow` when the
 *   path exists under another method.
 * - a store that is down (Redis holding sign-ins in progress and the limits, the database):
 *   the provider would answer `server_error` 500 (a page at /oauth/authorize, JSON
 *   elsewhere, or a redirect to the client); answered instead 503 with Retry-After, as a
 *   page where a person is looking and `temporarily_unavailable` JSON otherwise.
 */
import type Provider from 'oidc-provider';
import { DependencyUnavailableError } from '@skiptrace/runtime';
import type { Accounts } from '@skiptrace/accounts';
import type { AbuseControls } from './abuse.ts';
import { unavailablePage } from './views.ts';

const GRANT_NOT_ALLOWED = 'requested grant type is not allowed for this client';

/** The provider's endpoints and their methods (routes in provider.ts). */
function endpoints(registration: boolean): Map<string, string> {
  const map = new Map([
    ['/oauth/authorize', 'GET, POST'],
    ['/oauth/token', 'POST'],
    ['/oauth/revoke', 'POST'],
    ['/oauth/introspect', 'POST'],
    ['/oauth/jwks', 'GET'],
    ['/oauth/logout', 'GET, POST'],
    ['/.well-known/openid-configuration', 'GET'],
    ['/.well-known/oauth-authorization-server', 'GET'],
  ]);
  if (registration) map.set('/oauth/register', 'POST');
  return map;
}

/** The context of provider.use's middleware. */
type ProviderContext = Parameters<Parameters<Provider['use']>[0]>[0];

/** Routes where a person's browser is looking: an outage is a page there. */
const PAGE_ROUTES = new Set(['authorization', 'resume', 'end_session', 'end_session_confirm', 'end_session_success']);

/** 503 with Retry-After for an outage of a store, replacing whatever the provider answered. */
function answerUnavailable(ctx: ProviderContext, outage: DependencyUnavailableError): void {
  ctx.status = 503;
  ctx.remove('Location');
  ctx.set({ 'Retry-After': String(outage.retryAfterSeconds), 'Cache-Control': 'no-store' });
  if (PAGE_ROUTES.has(ctx.oidc?.route ?? '')) {
    ctx.type = 'html';
    ctx.body = unavailablePage(outage);
  } else ctx.body = { error: 'temporarily_unavailable', error_description: outage.publicMessage };
}

export function installProviderMiddleware(
  provider: Provider,
  deps: { accounts: Accounts; abuse: AbuseControls; registration: boolean },
): void {
  const served = endpoints(deps.registration);
  // The provider reports what its routes' error handlers caught as server_error (and
  // renders it before this middleware sees the answer): outages are remembered per request.
  const outages = new WeakMap<object, DependencyUnavailableError>();
  provider.on('server_error', (ctx: object, err: unknown) => {
    if (err instanceof DependencyUnavailableError) outages.set(ctx, err);
  });
  provider.use(async (ctx, next) => {
    try {
      await postProcess(ctx, next);
    } catch (err) {
      if (!(err instanceof DependencyUnavailableError)) throw err;
      outages.set(ctx, err);
    }
    const outage = outages.get(ctx);
    if (outage) answerUnavailable(ctx, outage);
  });

  async function postProcess(ctx: ProviderContext, next: () => Promise<unknown>): Promise<void> {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      const allow = served.get(ctx.path);
      ctx.set('Cache-Control', 'no-store');
      if (allow && !allow.split(', ').includes(ctx.method)) {
        ctx.status = 405;
        ctx.set('Allow', allow);
        ctx.body = { error: 'invalid_request', error_description: `method not allowed; use ${allow}` };
      } else {
        ctx.status = 404;
        ctx.body = { error: 'invalid_request', error_description: 'no such OAuth endpoint' };
      }
      return;
    }
    const route = ctx.oidc?.route;
    const body = ctx.body as Record<string, unknown> | undefined;
    if (route === 'token') {
      if (ctx.status === 400 && body?.error === 'invalid_request' && body.error_description === GRANT_NOT_ALLOWED)
        body.error = 'unauthorized_client';
      const clientId = ctx.oidc?.client?.clientId;
      const authenticated = body?.error !== 'invalid_client' && body?.error !== 'rate_limited';
      if (clientId && authenticated) {
        const wait = await deps.abuse.tokenByClient(clientId);
        if (wait) {
          ctx.status = 429;
          ctx.set('Retry-After', String(wait));
          ctx.body = { error: 'rate_limited', error_description: `too many token requests; retry in ${wait} seconds` };
        }
      }
    }
    if (route === 'registration' && ctx.status === 201 && typeof body?.client_id === 'string') {
      const record = await deps.accounts.findClient(body.client_id);
      if (record) body.account_id = record.accountId;
    }
  }
}
