/**
 * @skiptrace/testing: helpers for integration tests against the machine's PostgreSQL,
 * Redis and RabbitMQ: isolation per test file, waiting without sleeps, outage simulation.
 */
export { testUrls, waitUntil } from './services.ts';
export type { TestUrls, WaitOptions } from './services.ts';
export { createTestDatabaseUrl } from './postgres.ts';
export type { TestDatabase } from './postgres.ts';
export { deleteByPrefix, randomPrefix } from './redis.ts';
export { createTestVhost } from './rabbitmq.ts';
export type { TestVhost } from './rabbitmq.ts';
export { postgresReady, rabbitReady, redisReady } from './probes.ts';
export { createTcpProxy } from './tcp-proxy.ts';
export { freePort } from './ports.ts';
export type { TcpProxy } from './tcp-proxy.ts';
export {
  restartPostgres,
  startPostgres,
  startRabbit,
  startRedis,
  stopPostgres,
  stopRabbit,
  stopRedis,
} from './restart.ts';
export { ensureServices } from '../scripts/ensure-services.ts';
export type { EnsureServicesOptions } from '../scripts/ensure-services.ts';
export { authorizeOverHttp, clientCredentialsToken, demoClient } from './oauth.ts';
export type { ClientCredentials } from './oauth.ts';
