/**
 * Tokens for tests and benchmarks that drive a running system over HTTP: the OAuth
 * server's client_credentials grant, and the demo client the one-process system writes to
 * its data directory (demo-credentials.json) on first start.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** An access token from `issuer`'s token endpoint; throws with the status and body when refused. */
export async function clientCredentialsToken(
  issuer: string,
  client: ClientCredentials,
  scope = 'read write',
): Promise<string> {
  const res = await fetch(`${issuer}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope,
    }),
  });
  if (res.status !== 200) throw new Error(`no token from ${issuer}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The demo client of a one-process system started with SKIPTRACE_DATA_DIR = dataDir. */
export async function demoClient(dataDir: string): Promise<ClientCredentials> {
  const { clientId, clientSecret } = JSON.parse(
    await readFile(join(dataDir, 'demo-credentials.json'), 'utf8'),
  ) as ClientCredentials;
  return { clientId, clientSecret };
}

/** Cookies of one user agent, by name (the auth server's cookies do not collide across paths in one flow). */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    take(res: Response) {
      for (const line of res.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at).trim();
        const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
        if (expired) cookies.delete(name);
        else cookies.set(name, pair.slice(at + 1).trim());
      }
    },
  };
}

/**
 * The user's part of the authorization-code flow over plain HTTP, for machines without a
 * browser: follows the redirects with a cookie jar, fills the auth server's login form and
 * answers its consent form (by their CSRF field and action), and returns the URL the server
 * finally redirects to under the request's redirect_uri (with `code`, or `error`). The
 * browser suites (@skiptrace/testing/browser) cover the pages themselves.
 */
export async function authorizeOverHttp(
  authorizationUrl: URL,
  user: { email: string; password: string },
  decision: 'allow' | 'deny' = 'allow',
): Promise<URL> {
  const redirectUri = authorizationUrl.searchParams.get('redirect_uri');
  if (!redirectUri) throw new Error('the authorization URL has no redirect_uri');
  const jar = cookieJar();
  let url = authorizationUrl;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 12; step++) {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers: { cookie: jar.header(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form,
      redirect: 'manual',
    });
    jar.take(res);
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) return next;
      [url, form] = [next, undefined];
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action || !csrf)
      throw new Error(`${url.pathname} answered ${res.status} without a sign-in form: ${html.slice(0, 300)}`);
    url = new URL(action, url);
    form = new URLSearchParams(
      action.endsWith('/login') ? { csrf, email: user.email, password: user.password } : { csrf, decision },
    );
  }
  throw new Error(`no redirect to ${redirectUri} after 12 steps`);
}
