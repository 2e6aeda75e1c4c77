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
export { encryptedKeyStore, parseKeks } from './key-encryption.ts';
