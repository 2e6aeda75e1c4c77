export { createAuthService, wireAuth, type AuthService, type AuthServiceDeps } from './auth.service.ts';
export {
  authEnv,
  oauthEnv,
  authConfig,
  authConfigFrom,
  loadAuthConfig,
  type AuthConfig,
  type AuthEnv,
} from './config.ts';
export {
  createAccounts,
  AccountError,
  API_SCOPES,
  GRANT_TYPES,
  type Accounts,
  type Account,
  type User,
  type ClientRecord,
  type CreateClientInput,
} from './accounts.service.ts';
export { ensureDemo, DEMO_CLIENT_ID, DEMO_EMAIL, type DemoCredentials, type EnsureDemoOptions } from './demo.ts';
export {
  databaseKeyStore,
  fileKeyStore,
  rotateSigningKey,
  loadSigningKeys,
  publicJwks,
  type KeyStore,
  type StoredKey,
} from './signing-keys.ts';
export { hashSecret, verifySecret } from './passwords.ts';
export { withAuthDatabase, dataDirFrom } from './admin.ts';
export { createClientsRouter, clientView, type ClientsRouterDeps } from './clients.router.ts';
