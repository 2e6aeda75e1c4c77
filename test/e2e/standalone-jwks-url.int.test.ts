import { createSign, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSystem, type System } from '@skiptrace/standalone';

// AUTH_JWKS_URL means in the one-process system what it means to the gateway: the API
// verifies tokens with the keys published there, not with its own OAuth server's.
const ISSUER = 'https://issuer.jwks-url-test.example';
const AUDIENCE = 'urn:example:jwks-url-test';

const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'foreign-1', alg: 'ES256', use: 'sig' };

/**
 * An ES256 access token signed with the foreign key: an API client's (subject = client id),
 * since a user's token is also checked against this system's members (docs/oauth.md).
 */
function foreignToken(): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'ES256', typ: 'at+jwt', kid: jwk.kid })}.${part({
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'cli_foreign',
    client_id: 'cli_foreign',
    account_id: 'acct_foreign',
    scope: 'read write',
    iat: now,
    exp: now + 300,
  })}`;
  const signature = createSign('SHA256').update(input).sign({ key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

let jwksServer: Server;
let jwksRequests = 0;
let system: System;
let base: string;
let dataDir: string;

beforeAll(async () => {
  jwksServer = createServer((_req, res) => {
    jwksRequests++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const { port } = jwksServer.address() as AddressInfo;
  dataDir = await mkdtemp(join(tmpdir(), 'skiptrace-jwks-'));
  system = await createSystem({
    PORT: '0',
    SKIPTRACE_DATA_DIR: dataDir,
    SKIPTRACE_DEMO_ROWS: '0',
    LOG_LEVEL: 'silent',
    AUTH_ISSUER: ISSUER,
    API_AUDIENCE: AUDIENCE,
    AUTH_JWKS_URL: `http://127.0.0.1:${port}/keys`,
    SKIPTRACE_ADMIN_TOKEN: 'operator-secret-for-jwks-url-test',
  });
  base = await system.start();
}, 120_000);

afterAll(async () => {
  await system?.stop('test done');
  await new Promise((resolve) => jwksServer?.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

const list = (token: string) =>
  fetch(`${base}/api/v1/property/skiptrace?limit=1`, { headers: { authorization: `Bearer ${token}` } });

describe('one-process system with AUTH_JWKS_URL', () => {
  it('accepts tokens signed with the keys published at AUTH_JWKS_URL, fetched from there', async () => {
    const res = await list(foreignToken());
    expect(res.status).toBe(200);
    expect(jwksRequests).toBeGreaterThan(0);
  });

  it('refuses tokens of its own OAuth server, whose keys AUTH_JWKS_URL does not publish', async () => {
    const registered = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer operator-secret-for-jwks-url-test',
      },
      body: JSON.stringify({
        client_name: 'jwks url test',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: 'read write',
      }),
    });
    expect(registered.status).toBe(201);
    const client = (await registered.json()) as { client_id: string; client_secret: string };
    const issued = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', ...client, scope: 'read write' }),
    });
    expect(issued.status).toBe(200);
    const { access_token } = (await issued.json()) as { access_token: string };
    const res = await list(access_token);
    expect(res.status).toBe(401);
  });
});
