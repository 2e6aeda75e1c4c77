/**
 * Bearer-token enforcement for the API (RFC 6750 + RFC 9068 JWT access tokens): verifies
 * `Authorization: Bearer <jwt>` locally with jose against the OAuth server's JWKS (issuer,
 * audience, typ at+jwt, ES256/RS256 only, exp/nbf with clock tolerance) and sets req.auth.
 * Failures go to next() as ApiError with the WWW-Authenticate challenge in its headers, so
 * the service's one error middleware writes the seed's Error body.
 */
import type { RequestHandler } from 'express';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { isRole } from '@skiptrace/contracts';
import { ApiError, unavailable, type AuthContext } from '@skiptrace/runtime';
import { createTokenCache } from './token-cache.ts';

export interface BearerAuthOptions {
  /** Expected `iss`: the OAuth server's issuer URL. */
  issuer: string;
  /** Expected `aud`: the API's resource indicator (API_AUDIENCE). */
  audience: string;
  /** Remote JWKS (cached; refetched on an unknown kid at most every 30 s). */
  jwksUrl?: URL;
  /** Local JWKS source (same process as the OAuth server); re-read on an unknown kid. */
  jwks?: () => Promise<JSONWebKeySet> | JSONWebKeySet;
  /** Allowed clock skew for exp/nbf/iat in seconds; default 30. */
  clockToleranceSec?: number;
  /** Realm in WWW-Authenticate; default "skiptrace". */
  realm?: string;
  /** Verified tokens kept in memory (LRU entries); 0 disables the cache; default 10000. */
  cacheSize?: number;
}

export interface BearerAuth {
  /** Verifies the token and sets req.auth; 401 otherwise. */
  middleware: RequestHandler;
  /** 403 insufficient_scope unless req.auth carries scope. Mount after middleware. */
  requireScope(scope: string): RequestHandler;
  /** Verifies one token (for non-HTTP callers); throws ApiError('unauthorized'). */
  verify(token: string): Promise<AuthContext>;
}

const ALGORITHMS = ['ES256', 'RS256'];
const quote = (value: string) => value.replace(/["\\]/g, '');

function localKeySource(jwks: NonNullable<BearerAuthOptions['jwks']>): JWTVerifyGetKey {
  let current: JWTVerifyGetKey | undefined;
  const load = async () => (current = createLocalJWKSet(await jwks()));
  return async (header, token) => {
    const getKey = current ?? (await load());
    try {
      return await getKey(header, token);
    } catch (err) {
      if (!(err instanceof joseErrors.JWKSNoMatchingKey)) throw err;
      return (await load())(header, token);
    }
  };
}

class ClaimsError extends Error {}

function toContext(payload: JWTPayload): AuthContext {
  const claims = payload as JWTPayload & { account_id?: unknown; client_id?: unknown; scope?: unknown; role?: unknown };
  if (typeof claims.account_id !== 'string' || !claims.account_id) throw new ClaimsError('token has no account_id');
  if (typeof claims.client_id !== 'string' || typeof claims.sub !== 'string')
    throw new ClaimsError('token lacks client_id or sub');
  return {
    accountId: claims.account_id,
    clientId: claims.client_id,
    subject: claims.sub,
    scopes: typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [],
    ...(isRole(claims.role) ? { role: claims.role } : {}),
  };
}

export function createBearerAuth(options: BearerAuthOptions): BearerAuth {
  const { issuer, audience, clockToleranceSec = 30, realm = 'skiptrace' } = options;
  if (!options.jwks === !options.jwksUrl) throw new Error('createBearerAuth needs exactly one of jwks and jwksUrl');
  const getKey = options.jwks ? localKeySource(options.jwks) : createRemoteJWKSet(options.jwksUrl!);
  const cache = createTokenCache<AuthContext>(options.cacheSize ?? 10_000);
  const challenge = (extra = '') => `Bearer realm="${quote(realm)}"${extra}`;
  const invalid = (description: string) =>
    new ApiError('unauthorized', `invalid access token: ${description}`, {
      'WWW-Authenticate': challenge(`, error="invalid_token", error_description="${quote(description)}"`),
    });

  async function verify(token: string): Promise<AuthContext> {
    const now = Math.floor(Date.now() / 1000);
    const cached = cache.get(token, now - clockToleranceSec);
    if (cached) return cached;
    try {
      const { payload } = await jwtVerify(token, getKey, {
        issuer,
        audience,
        typ: 'at+jwt',
        algorithms: ALGORITHMS,
        clockTolerance: clockToleranceSec,
        requiredClaims: ['exp', 'iat'],
      });
      const context = toContext(payload);
      cache.set(token, context, payload.exp!);
      return context;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw invalid('the token has expired');
      if (err instanceof ClaimsError) throw invalid(err.message);
      // The key server did not answer: not the caller's fault, retry later.
      if (err instanceof joseErrors.JWKSTimeout || !(err instanceof joseErrors.JOSEError))
        throw unavailable('the key server');
      throw invalid(describe(err));
    }
  }

  const middleware: RequestHandler = (req, _res, next) => {
    const header = req.get('authorization');
    if (!header)
      return next(new ApiError('unauthorized', 'an access token is required', { 'WWW-Authenticate': challenge() }));
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match) return next(invalid('the Authorization header is not "Bearer <token>"'));
    verify(match[1]!).then(
      (auth) => {
        req.auth = auth;
        next();
      },
      (err: unknown) => next(err),
    );
  };

  const requireScope =
    (scope: string): RequestHandler =>
    (req, _res, next) => {
      if (!req.auth)
        return next(new ApiError('unauthorized', 'an access token is required', { 'WWW-Authenticate': challenge() }));
      if (req.auth.scopes.includes(scope)) return next();
      next(
        new ApiError('insufficient_scope', `this operation needs the "${scope}" scope`, {
          'WWW-Authenticate': challenge(`, error="insufficient_scope", scope="${quote(scope)}"`),
        }),
      );
    };

  return { middleware, requireScope, verify };
}

/** A short reason for the client; never echoes the token. */
function describe(err: unknown): string {
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `${err.claim} claim check failed`;
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'signing algorithm not allowed';
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'signature verification failed';
  if (err instanceof joseErrors.JWKSNoMatchingKey) return 'signed by an unknown key';
  if (err instanceof joseErrors.JWSInvalid || err instanceof joseErrors.JWTInvalid) return 'malformed token';
  return 'the token could not be verified';
}
