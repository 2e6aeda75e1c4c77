import { describe, it, expect, beforeAll } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { SignJWT, exportJWK, generateKeyPair, base64url, type JWK, type CryptoKey } from 'jose';
import { errorHandler, silentLogger, requestContext } from '@skiptrace/runtime';
import { ERROR_CODES } from '@skiptrace/contracts';
import { createBearerAuth } from '../src/index.ts';

const ISSUER = 'https://auth.example.test';
const AUDIENCE = 'urn:skiptrace:api';
let key: CryptoKey;
let jwk: JWK;
let otherKey: CryptoKey;
let app: express.Express;

const now = () => Math.floor(Date.now() / 1000);

function sign(
  claims: Record<string, unknown> = {},
  options: { key?: CryptoKey; typ?: string; kid?: string; alg?: string } = {},
): Promise<string> {
  const payload = {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'usr_1',
    iat: now(),
    exp: now() + 3600,
    scope: 'read',
    client_id: 'cli_1',
    account_id: 'acc_1',
    ...claims,
  };
  return new SignJWT(JSON.parse(JSON.stringify(payload)) as Record<string, unknown>)
    .setProtectedHeader({ alg: options.alg ?? 'ES256', typ: options.typ ?? 'at+jwt', kid: options.kid ?? 'k1' })
    .sign(options.key ?? key);
}

beforeAll(async () => {
  ({ privateKey: otherKey } = await generateKeyPair('ES256'));
  // The JWKS publishes the public half of `key` under kid k1.
  const pair = await generateKeyPair('ES256', { extractable: true });
  key = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
  const bearer = createBearerAuth({ issuer: ISSUER, audience: AUDIENCE, jwks: () => ({ keys: [jwk] }) });
  app = express();
  app.use(requestContext(silentLogger()));
  app.use('/api/v1', bearer.middleware);
  app.get('/api/v1/things', bearer.requireScope('read'), (req, res) => {
    res.json(req.auth);
  });
  app.post('/api/v1/things', bearer.requireScope('write'), (_req, res) => {
    res.status(201).json({});
  });
  app.use(errorHandler());
});

const get = (authorization?: string) => {
  const r = request(app).get('/api/v1/things');
  return authorization === undefined ? r : r.set('Authorization', authorization);
};

function expectUnauthorized(res: request.Response, withError = true) {
  expect(res.status).toBe(401);
  expect(res.body).toEqual({ error: ERROR_CODES.unauthorized.code, message: expect.any(String) });
  const header = res.headers['www-authenticate'];
  expect(header).toMatch(/^Bearer realm="skiptrace"/);
  if (withError) expect(header).toContain('error="invalid_token"');
  else expect(header).not.toContain('error=');
}

describe('bearer middleware', () => {
  it('accepts a valid token and sets req.auth from its claims', async () => {
    const res = await get(`Bearer ${await sign({ scope: 'read write' })}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accountId: 'acc_1', clientId: 'cli_1', subject: 'usr_1', scopes: ['read', 'write'] });
  });

  it('missing header → 401 with a bare Bearer challenge', async () => {
    expectUnauthorized(await get(), false);
  });

  it('malformed header → 401 invalid_token', async () => {
    expectUnauthorized(await get('Basic dXNlcjpwYXNz'));
    expectUnauthorized(await get('Bearer'));
    expectUnauthorized(await get('Bearer not a token'));
    expectUnauthorized(await get('Bearer abc.def.ghi'));
  });

  it('expired token → 401 invalid_token (beyond the 30 s clock tolerance)', async () => {
    const token = await sign({ exp: now() - 31, iat: now() - 3700 });
    const res = await get(`Bearer ${token}`);
    expectUnauthorized(res);
    expect(res.body.message).toContain('expired');
  });

  it('accepts a token expired within the clock tolerance', async () => {
    const res = await get(`Bearer ${await sign({ exp: now() - 5, iat: now() - 3600 })}`);
    expect(res.status).toBe(200);
  });

  it('token signed by another key → 401', async () => {
    expectUnauthorized(await get(`Bearer ${await sign({}, { key: otherKey })}`));
    expectUnauthorized(await get(`Bearer ${await sign({}, { key: otherKey, kid: 'unknown-kid' })}`));
  });

  it('alg none → 401', async () => {
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: 'k1' }));
    const payload = base64url.encode(
      JSON.stringify({
        iss: ISSUER,
        aud: AUDIENCE,
        sub: 'usr_1',
        scope: 'read',
        client_id: 'c',
        account_id: 'a',
        iat: now(),
        exp: now() + 600,
      }),
    );
    expectUnauthorized(await get(`Bearer ${header}.${payload}.`));
  });

  it('HS256 token (symmetric, e.g. keyed with a public key) → 401', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(jwk));
    const token = await new SignJWT({ scope: 'read', client_id: 'c', account_id: 'a' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('usr_1')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    expectUnauthorized(await get(`Bearer ${token}`));
  });

  it('wrong audience, wrong issuer, wrong typ, missing account_id → 401', async () => {
    expectUnauthorized(await get(`Bearer ${await sign({ aud: 'urn:other:api' })}`));
    expectUnauthorized(await get(`Bearer ${await sign({ iss: 'https://evil.example' })}`));
    expectUnauthorized(await get(`Bearer ${await sign({}, { typ: 'JWT' })}`));
    expectUnauthorized(await get(`Bearer ${await sign({ account_id: undefined })}`));
  });

  it('too few scopes → 403 insufficient_scope naming the scope', async () => {
    const token = await sign({ scope: 'read' });
    const res = await request(app).post('/api/v1/things').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="skiptrace", error="insufficient_scope", scope="write"');
    expect(res.body).toEqual({ error: ERROR_CODES.insufficient_scope.code, message: expect.stringContaining('write') });
  });

  it('a key added to the JWKS later is picked up on an unknown kid', async () => {
    const keys: JWK[] = [jwk];
    const bearer = createBearerAuth({ issuer: ISSUER, audience: AUDIENCE, jwks: () => ({ keys }) });
    await expect(bearer.verify(await sign())).resolves.toMatchObject({ subject: 'usr_1' });
    const next = await generateKeyPair('ES256', { extractable: true });
    keys.push({ ...(await exportJWK(next.publicKey)), kid: 'k2', alg: 'ES256' });
    await expect(bearer.verify(await sign({}, { key: next.privateKey, kid: 'k2' }))).resolves.toMatchObject({
      subject: 'usr_1',
    });
  });

  it('needs exactly one key source', () => {
    expect(() => createBearerAuth({ issuer: ISSUER, audience: AUDIENCE })).toThrow(/exactly one/);
  });
});
