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
 */
import type Provider from 'oidc-provider';
import type { Accounts } from './accounts.service.ts';
import type { AbuseControls } from './abuse.ts';

const GRANT_NOT_ALLOWED = 'requested grant type is not allowed for this client';

export function installProviderMiddleware(
  provider: Provider,
  deps: { accounts: Accounts; abuse: AbuseControls },
): void {
  provider.use(async (ctx, next) => {
    await next();
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
  });
}
