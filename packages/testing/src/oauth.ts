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
