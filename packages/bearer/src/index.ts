export { createBearerAuth, type BearerAuth, type BearerAuthOptions } from './bearer.ts';
export { createTokenCache, type TokenCache } from './token-cache.ts';
