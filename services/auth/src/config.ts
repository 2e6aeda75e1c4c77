import { z } from 'zod';
import type { JWK } from 'jose';
import { loadConfig } from '@skiptrace/runtime';
import { parseKeks, type Kek } from './key-encryption.ts';
import { parseJwks } from './signing-keys.ts';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const int = (min: number) => z.coerce.number().int().min(min);

/** Environment of the auth service. Secrets also accept a `<NAME>_FILE` path. */
export const authEnvSchema = z
  .object({
    /** TCP port of `main.ts`; default 8081. */
    PORT: int(0).max(65535).default(8081),
    /** Public base URL of the OAuth server (no path); default http://localhost:${PORT}. */
    AUTH_ISSUER: z.url().optional(),
    /** `aud` of access tokens, the API's resource indicator; default urn:skiptrace:api. */
    API_AUDIENCE: z.string().min(1).default('urn:skiptrace:api'),
    /** RFC 7591 initial access token (secret, ≥ 16 chars); absent: registration is off. */
    SKIPTRACE_ADMIN_TOKEN: z.string().min(16).optional(),
    /** JWKS JSON of private signing keys (secret); absent: generated and stored. */
    AUTH_SIGNING_KEYS: z.string().optional(),
    /**
     * Key-encryption keys of the stored signing keys (secret; AUTH_KEY_ENCRYPTION_KEYS_FILE):
     * comma-separated base64 of ≥ 32 random bytes, the first encrypts; absent: stored in plain.
     */
    AUTH_KEY_ENCRYPTION_KEYS: z.string().optional(),
    /** Comma-separated cookie signing secrets, newest first; absent: derived from the signing keys. */
    AUTH_COOKIE_KEYS: z.string().optional(),
    /** Trust X-Forwarded-* from a TLS-terminating proxy (production); default false. */
    AUTH_TRUST_PROXY: bool.default(false),
    /** Access-token lifetime in seconds; default 3600 (the seed's expires_in). */
    AUTH_ACCESS_TOKEN_TTL: int(60).default(3600),
    /** Refresh-token (and grant) lifetime in seconds; default 2592000 (30 days). */
    AUTH_REFRESH_TOKEN_TTL: int(300).default(30 * 24 * 3600),
    /** Token requests per client per minute; default 600. */
    AUTH_TOKEN_RATE_LIMIT: int(1).default(600),
    /** Token requests per client IP per minute; default 1200. */
    AUTH_TOKEN_IP_RATE_LIMIT: int(1).default(1200),
    /** Failed client authentications per client and source address per minute; default 10. */
    AUTH_CLIENT_AUTH_FAILURE_LIMIT: int(1).default(10),
    /** Login form posts per client IP per minute; default 30. */
    AUTH_LOGIN_RATE_LIMIT: int(1).default(30),
    /** Failed logins for one email before it is locked; default 5. */
    AUTH_LOCKOUT_THRESHOLD: int(1).default(5),
    /** First lockout in seconds, doubling with each further failure; default 60. */
    AUTH_LOCKOUT_BASE_SECONDS: int(1).default(60),
    /** Longest lockout in seconds; default 3600. */
    AUTH_LOCKOUT_MAX_SECONDS: int(1).default(3600),
    /** Public URL of the web console (the gateway's /console); its client's redirect URI is <this>/callback; default http://localhost:8080/console. */
    AUTH_CONSOLE_URL: z.url().default('http://localhost:8080/console'),
    /** Directory of the one-process mode's data (keys.json, demo credentials); default .data. */
    SKIPTRACE_DATA_DIR: z.string().default('.data'),
  })
  .transform((env) => ({
    port: env.PORT,
    issuer: (env.AUTH_ISSUER ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    apiAudience: env.API_AUDIENCE,
    adminToken: env.SKIPTRACE_ADMIN_TOKEN,
    signingKeys: env.AUTH_SIGNING_KEYS,
    keyEncryptionKeys: env.AUTH_KEY_ENCRYPTION_KEYS,
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
    consoleUrl: env.AUTH_CONSOLE_URL.replace(/\/$/, ''),
    dataDir: env.SKIPTRACE_DATA_DIR,
  }))
  .superRefine((cfg, ctx) => {
    if (cfg.keyEncryptionKeys !== undefined) {
      try {
        parseKeks(cfg.keyEncryptionKeys);
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['AUTH_KEY_ENCRYPTION_KEYS'], message: (err as Error).message });
      }
    }
    if (cfg.signingKeys === undefined) return;
    try {
      parseJwks(cfg.signingKeys);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['AUTH_SIGNING_KEYS'], message: (err as Error).message });
    }
  });

type ParsedEnv = z.infer<typeof authEnvSchema>;
export interface AuthConfig extends Omit<ParsedEnv, 'signingKeys' | 'dataDir' | 'keyEncryptionKeys'> {
  /** Private JWKs from AUTH_SIGNING_KEYS; absent: the key store decides. */
  signingKeys?: JWK[];
  /** Encrypt the stored signing keys with these (the first encrypts); absent: stored in plain. */
  keyEncryptionKeys?: Kek[];
  /** Where keys.json lives when the database is PGlite; absent: keys go in the database. */
  dataDir?: string;
}

/** Parses the environment once; throws ConfigError naming every bad variable. */
export function loadAuthConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const parsed = loadConfig(authEnvSchema, env);
  return {
    ...parsed,
    signingKeys: parsed.signingKeys === undefined ? undefined : parseJwks(parsed.signingKeys),
    keyEncryptionKeys: parsed.keyEncryptionKeys === undefined ? undefined : parseKeks(parsed.keyEncryptionKeys),
  };
}

/** Defaults for tests and embedding: the documented defaults plus overrides. */
export function authConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  const { dataDir: _ignored, ...defaults } = loadAuthConfig({});
  return { ...defaults, ...overrides };
}
