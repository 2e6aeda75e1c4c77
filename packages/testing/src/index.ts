/**
 * @skiptrace/testing: helpers for integration tests against PostgreSQL, Redis and RabbitMQ
 * (the test run's containers, or the machine's own services as an opt-out): the containers
 * themselves, isolation per test file, waiting without sleeps, outage simulation.
 */
export { SERVICE_ENV, onContainers, serviceContainer, serviceMode, testUrls, waitUntil } from './services.ts';
export type { ServiceMode, ServiceName, TestUrls, WaitOptions } from './services.ts';
export { ensureDockerEngine, resolveServiceImages, startServiceContainers } from './containers.ts';
export type { ResolvedImages, StartedServices, StartOptions } from './containers.ts';
export { createTestDatabaseUrl } from './postgres.ts';
export type { TestDatabase } from './postgres.ts';
export { deleteByPrefix, randomPrefix } from './redis.ts';
export { createTestVhost, rabbitmqctl } from './rabbitmq.ts';
export type { TestVhost } from './rabbitmq.ts';
export { postgresReady, rabbitReady, redisReady } from './probes.ts';
export { createTcpProxy } from './tcp-proxy.ts';
export { freePort } from './ports.ts';
export { stopChild } from './exec.ts';
export type { TcpProxy } from './tcp-proxy.ts';
export {
  containerOf,
  docker,
  pauseService,
  restartService,
  unpauseService,
  startPostgres,
  startRabbit,
  stopPostgres,
  stopRabbit,
} from './restart.ts';
export { ensureServices } from '../scripts/ensure-services.ts';
export type { EnsureServicesOptions } from '../scripts/ensure-services.ts';
export { authorizeOverHttp, clientCredentialsToken, demoClient } from './oauth.ts';
export type { ClientCredentials } from './oauth.ts';
