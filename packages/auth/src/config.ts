import { z } from 'zod';
import type { JWK } from 'jose';
import { commonEnv, databaseEnv, envFlag, envInt, envPort, issuerEnv, loadConfig, redisEnv } from '@skiptrace/runtime';
import { parseKeks, type Kek } from './key-encryption.ts';
import { parseJwks } from './signing-keys.ts';

/** Variables of the OAuth server itself. Secrets also accept a `<NAME>_FILE` path. */
export const oauthEnv = {
  ...issuerEnv,
  SKIPTRACE_ADMIN_TOKEN: z
    .string()
    .min(16)
    .optional()
    .describe(
      'RFC 7591 initial access token for POST /oauth/register (secret, at least 16 characters). Absent: registration is off',
    ),
  AUTH_SIGNING_KEYS: z
    .string()
    .superRefine((text, ctx) => {
      try {
        parseJwks(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    })
    .optional()
    .describe('JWKS JSON of the private signing keys (ES256; secret). Absent: generated and stored'),
  AUTH_KEY_ENCRYPTION_KEYS: z
    .string()
    .superRefine((text, ctx) => {
      try {
        parseKeks(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    })
    .optional()
    .describe(
      'key-encryption keys of the stored signing keys (secret): comma-separated base64 of at least 32 random bytes, the first encrypts. Absent: stored in plain',
    ),
  AUTH_COOKIE_KEYS: z
    .string()
    .optional()
    .describe('comma-separated cookie signing secrets, newest first (secret). Absent: derived from the signing keys'),
  AUTH_TRUST_PROXY: envFlag
    .default(false)
    .describe('trust `X-Forwarded-*` from the TLS-terminating proxy; cookies become `Secure`'),
  AUTH_ACCESS_TOKEN_TTL: envInt(60).default(3600).describe('access-token lifetime (`expires_in`), seconds'),
  AUTH_REFRESH_TOKEN_TTL: envInt(300)
    .default(30 * 24 * 3600)
    .describe('refresh-token (and grant) lifetime, seconds'),
  AUTH_TOKEN_RATE_LIMIT: envInt(1).default(600).describe('token requests per client per minute (429 over it)'),
  AUTH_TOKEN_IP_RATE_LIMIT: envInt(1).default(1200).describe('token requests per client IP per minute (429 over it)'),
  AUTH_CLIENT_AUTH_FAILURE_LIMIT: envInt(1)
    .default(10)
    .describe('failed client authentications per client and source address per minute (429 over it)'),
  AUTH_LOGIN_RATE_LIMIT: envInt(1).default(30).describe('login form posts per client IP per minute'),
  AUTH_LOCKOUT_THRESHOLD: envInt(1).default(5).describe('failed logins for one email before it is locked'),
  AUTH_LOCKOUT_BASE_SECONDS: envInt(1)
    .default(60)
    .describe('first lockout, seconds; it doubles with each further failure'),
  AUTH_LOCKOUT_MAX_SECONDS: envInt(1).default(3600).describe('longest lockout, seconds'),
  AUTH_CONSOLE_URL: z
    .url()
    .optional()
    .describe(
      "public URL of the web console (the gateway's /console); its OAuth client's redirect URI is `<this>/callback`. Default: http://localhost:8080/console (one-process mode: <AUTH_ISSUER>/console)",
    ),
};

/** Environment of the auth service process. */
export const authEnv = z.object({
  PORT: envPort(8081),
  ...commonEnv,
  ...databaseEnv,
  ...redisEnv,
  ...oauthEnv,
});
export type AuthEnv = z.infer<typeof authEnv>;

export interface AuthConfig {
  /** Public base URL of the OAuth server (no trailing slash). */
  issuer: string;
  apiAudience: string;
  adminToken?: string;
  /** Private JWKs from AUTH_SIGNING_KEYS; absent: the key store decides. */
  signingKeys?: JWK[];
  /** Encrypt the stored signing keys with these (the first encrypts); absent: stored in plain. */
  keyEncryptionKeys?: Kek[];
  cookieKeys?: string[];
  trustProxy: boolean;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  tokenRateLimit: number;
  tokenIpRateLimit: number;
  clientAuthFailureLimit: number;
  loginRateLimit: number;
  lockoutThreshold: number;
  lockoutBaseSeconds: number;
  lockoutMaxSeconds: number;
  /** Public URL of the web console (no trailing slash). */
  consoleUrl: string;
  /** Where keys.json lives when the database is PGlite; absent: keys go in the database. */
  dataDir?: string;
}

/** The OAuth server's settings from a parsed environment; the one-process mode calls it too. */
export function authConfigFrom(env: AuthEnv): AuthConfig {
  return {
    issuer: (env.AUTH_ISSUER ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    apiAudience: env.API_AUDIENCE,
    adminToken: env.SKIPTRACE_ADMIN_TOKEN,
    signingKeys: env.AUTH_SIGNING_KEYS === undefined ? undefined : parseJwks(env.AUTH_SIGNING_KEYS),
    keyEncryptionKeys: env.AUTH_KEY_ENCRYPTION_KEYS === undefined ? undefined : parseKeks(env.AUTH_KEY_ENCRYPTION_KEYS),
    cookieKeys: env.AUTH_COOKIE_KEYS?.split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    trustProxy: env.AUTH_TRUST_PROXY,
    accessTokenTtl: env.AUTH_ACCESS_TOKEN_TTL,
    refreshTokenTtl: env.AUTH_REFRESH_TOKEN_TTL,
    tokenRateLimit: env.AUTH_TOKEN_RATE_LIMIT,
    tokenIpRateLimit: env.AUTH_TOKEN_IP_RATE_LIMIT,
    clientAuthFailureLimit: env.AUTH_CLIENT_AUTH_FAILURE_LIMIT,
    loginRateLimit: env.AUTH_LOGIN_RATE_LIMIT,
    lockoutThreshold: env.AUTH_LOCKOUT_THRESHOLD,
    lockoutBaseSeconds: env.AUTH_LOCKOUT_BASE_SECONDS,
    lockoutMaxSeconds: env.AUTH_LOCKOUT_MAX_SECONDS,
    consoleUrl: (env.AUTH_CONSOLE_URL ?? 'http://localhost:8080/console').replace(/\/+$/, ''),
    dataDir: env.SKIPTRACE_DATA_DIR,
  };
}

/** Parses the environment once; throws ConfigError naming every bad variable. */
export function loadAuthConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  return authConfigFrom(loadConfig(authEnv, env));
}

/** Defaults for tests and embedding: the documented defaults plus overrides. */
export function authConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  const { dataDir: _ignored, ...defaults } = loadAuthConfig({});
  return { ...defaults, ...overrides };
}
