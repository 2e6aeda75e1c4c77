/**
 * createAuthService: the OAuth 2.0 server as an Express app to mount at the ROOT of a server
 * (it answers /oauth/*, /.well-known/* and /interaction/*, and passes every other path to
 * next(), so it can share a server with the API). It never listens. Expects the database
 * migrated (db.migrate()). Artefact storage: the database, Redis only for what may be lost
 * (oidc-artefacts.ts).
 */
import { createHmac } from 'node:crypto';
import express, { type Express } from 'express';
import type Provider from 'oidc-provider';
import type { JWK } from 'jose';
import type { Database } from '@skiptrace/storage';
import type { KeyValueStore } from '@skiptrace/kv';
import { errorHandler, inputBoundary, labelRoute, observeHttp, type Logger } from '@skiptrace/runtime';
import { createAccounts, createMembers, type Accounts } from '@skiptrace/accounts';
import { createAuditLog } from '@skiptrace/audit';
import { createAbuseControls } from './abuse.ts';
import { createClientAdapter } from './client-adapter.ts';
import { ensureConsoleClient } from './console-client.ts';
import type { AuthConfig } from './config.ts';
import { ensureDemo, type DemoCredentials, type EnsureDemoOptions } from './demo.ts';
import { createInteractionsRouter } from './interactions.router.ts';
import { createMemberLinksRouter } from './member-links.router.ts';
import { purgeExpired } from './oidc-adapter-db.ts';
import { artefactAdapters, LOSSABLE_MODELS } from './oidc-artefacts.ts';
import { createProvider } from './provider.ts';
import { providerBodies } from './provider-bodies.ts';
import { installProviderMiddleware } from './provider-middleware.ts';
import {
  databaseKeyStore,
  fileKeyStore,
  loadSigningKeys,
  publicJwks,
  rotateSigningKey,
  type StoredKey,
} from './signing-keys.ts';
import { encryptedKeyStore } from './key-encryption.ts';

export interface AuthServiceDeps {
  db: Database;
  kv: KeyValueStore;
  config: AuthConfig;
  logger: Logger;
}

export interface AuthService {
  app: Express;
  provider: Provider;
  accounts: Accounts;
  /** The public JWKS served at /oauth/jwks (for a gateway in the same process). */
  jwks(): { keys: JWK[] };
  /** Adds a signing key pair, published now, signing from activateInSec on (after a restart). */
  rotateSigningKey(options?: { activateInSec?: number }): Promise<StoredKey[]>;
  ensureDemo(options?: EnsureDemoOptions): Promise<DemoCredentials & { created: boolean }>;
  /** Registers (or updates the redirect URIs of) the web console's public client; consoleUrl ends in /console. */
  ensureConsoleClient(options: { consoleUrl: string }): Promise<void>;
  /** Stops timers; the caller owns and closes db and kv. */
  close(): Promise<void>;
}

const PURGE_INTERVAL_MS = 10 * 60_000;
const PROVIDER_PATH = /^\/(oauth\/|\.well-known\/)/;
/** oidc-provider's own paths (provider.ts `routes`, discovery): metric labels for its requests. */
const PROVIDER_ROUTES = [
  '/oauth/authorize',
  '/oauth/token',
  '/oauth/jwks',
  '/oauth/revoke',
  '/oauth/introspect',
  '/oauth/register',
  '/oauth/userinfo',
  '/oauth/logout',
  '/.well-known/openid-configuration',
  '/.well-known/oauth-authorization-server',
];

/** A bounded route label for a request oidc-provider serves (never the raw path: it can hold ids). */
function providerRoute(path: string): string {
  for (const route of PROVIDER_ROUTES) {
    if (path === route) return route;
    if (path.startsWith(`${route}/`)) return `${route}/:id`;
  }
  return path.startsWith('/oauth/') ? '/oauth/*' : '/.well-known/*';
}

/**
 * Where generated signing keys live, encrypted with the key-encryption keys when configured
 * (without them, encrypted keys fail loudly instead of being replaced).
 */
function keyStoreFor(db: Database, config: AuthConfig) {
  if (config.signingKeys) return undefined;
  const inner = db.kind === 'pglite' && config.dataDir ? fileKeyStore(config.dataDir) : databaseKeyStore(db);
  return encryptedKeyStore(inner, config.keyEncryptionKeys ?? []);
}

/** Cookie keys: configured, or derived from the private signing keys (shared by replicas). */
function cookieKeysFor(config: AuthConfig, keys: JWK[]): string[] {
  if (config.cookieKeys?.length) return config.cookieKeys;
  return keys
    .filter((k) => k.d)
    .map((k) => createHmac('sha256', k.d!).update('skiptrace auth cookies').digest('base64url'));
}

export async function createAuthService({ db, kv, config, logger }: AuthServiceDeps): Promise<AuthService> {
  const log = logger.child({ scope: 'auth' });
  const accounts = createAccounts(db);
  const abuse = createAbuseControls(kv, config);
  const store = keyStoreFor(db, config);
  // Keys stored in plain (or under an older key-encryption key) are re-encrypted first.
  const rewrapped = store ? await store.rewrap() : 0;
  if (rewrapped > 0) log.info({ keys: rewrapped }, 'signing keys re-encrypted with the first key-encryption key');
  const keys = config.signingKeys ?? (await loadSigningKeys(store!));
  const provider = createProvider({
    config,
    accounts,
    abuse,
    keys,
    cookieKeys: cookieKeysFor(config, keys),
    adapterFor: artefactAdapters(db, kv),
    clientAdapter: createClientAdapter(accounts),
    logger: log,
  });
  installProviderMiddleware(provider, { accounts, abuse, registration: Boolean(config.adminToken) });
  log.info(
    { issuer: config.issuer, artefacts: db.kind, lossable: kv.kind === 'redis' ? [...LOSSABLE_MODELS] : [] },
    'oauth provider ready',
  );

  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy) app.set('trust proxy', true);
  app.use(observeHttp());
  // gzip, deflate and br are undone within limits: by the interaction forms' parser, and for
  // oidc-provider's endpoints by providerBodies (it undoes no Content-Encoding itself).
  app.use(inputBoundary());
  const audit = createAuditLog(db);
  const secureCookies = config.trustProxy || config.issuer.startsWith('https:');
  // Before the interactions: /interaction/invitation/<token> is no interaction uid.
  app.use(
    createMemberLinksRouter({
      members: createMembers(db),
      audit,
      abuse,
      secureCookies,
      consoleUrl: config.consoleUrl,
    }),
  );
  app.use(createInteractionsRouter({ provider, accounts, abuse, audit, secureCookies }));
  app.post('/oauth/token', async (req, res, next) => {
    const wait = await abuse.tokenByIp(req.ip ?? 'unknown');
    if (!wait) return next();
    res
      .status(429)
      .set({ 'Retry-After': String(wait), 'Cache-Control': 'no-store' })
      .json({ error: 'rate_limited', error_description: `too many token requests; retry in ${wait} seconds` });
  });
  const handle = provider.callback();
  app.use(providerBodies(PROVIDER_PATH));
  app.use((req, res, next) => {
    if (!PROVIDER_PATH.test(req.path)) return next();
    labelRoute(req, providerRoute(req.path));
    return handle(req, res);
  });
  // What failed in the Express part (a limit whose store is down, a form that cannot be
  // read) in RFC 6749's shape: 503 temporarily_unavailable with Retry-After for an outage.
  app.use(errorHandler());

  const purge = setInterval(() => {
    purgeExpired(db).catch((err: unknown) => log.warn({ err }, 'purging expired oidc artefacts failed'));
  }, PURGE_INTERVAL_MS).unref();
  const published = publicJwks(keys);

  return {
    app,
    provider,
    accounts,
    jwks: () => published,
    async rotateSigningKey(options = {}) {
      if (!store) throw new Error('signing keys come from AUTH_SIGNING_KEYS: rotate them there');
      return rotateSigningKey(store, options.activateInSec ?? 0);
    },
    ensureDemo: (options) => ensureDemo(accounts, { dataDir: config.dataDir, ...options }),
    ensureConsoleClient: (options) => ensureConsoleClient(accounts, options),
    async close() {
      clearInterval(purge);
    },
  };
}

/**
 * The auth service's composition, called by its main.ts and by the one-process system:
 * the OAuth server, and the web console's public client (redirect URI `<consoleUrl>/callback`).
 */
export async function wireAuth(deps: Omit<AuthServiceDeps, 'config'>, config: AuthConfig): Promise<AuthService> {
  const auth = await createAuthService({ ...deps, config });
  await auth.ensureConsoleClient({ consoleUrl: config.consoleUrl });
  return auth;
}
