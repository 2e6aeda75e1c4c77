/**
 * The issuer is configuration (#22 item 5). oidc-provider builds every absolute URL it hands
 * out — the discovery document's endpoints, the redirect that resumes an authorization after
 * sign-in, the audiences it accepts for client assertions — from Koa's `ctx.href`, which Koa
 * derives from the request: the `Host` header (or `X-Forwarded-Host`/`-Proto` behind a trusted
 * proxy), or the target itself when a request is sent in absolute form (`GET http://x/…`).
 * With `Host: evil.example` the discovery document pointed 7 of its 8 URLs at evil.example.
 *
 * This Koa middleware, first inside the provider, pins the request's origin to the issuer's
 * before anything reads it: a request for any host is answered with the configured URLs.
 * Only the origin is replaced; the path and query are the request's own. Client addresses
 * (`ctx.ip`) are untouched.
 */
import type Provider from 'oidc-provider';

export function pinIssuerOrigin(provider: Provider, issuer: string): void {
  const { origin, host, hostname, protocol } = new URL(issuer);
  const scheme = protocol.slice(0, -1);
  provider.use(async (ctx, next) => {
    const request = ctx.request;
    // The path and query of the request, also when its target was absolute.
    const target = new URL(request.originalUrl, origin);
    Object.defineProperties(request, {
      origin: { value: origin },
      host: { value: host },
      hostname: { value: hostname },
      protocol: { value: scheme },
      href: { value: `${origin}${target.pathname}${target.search}` },
    });
    await next();
  });
}
