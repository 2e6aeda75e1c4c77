// Composition root of the gateway when it runs as its own process.
import { openBus, openDatabase, openKeyValue } from '@skiptrace/adapters';
import {
  createHealth,
  createLogger,
  createShutdown,
  exitOnSignals,
  finishApp,
  listen,
  loadConfig,
  metricsOptionsFrom,
  observabilityEnvSchema,
  startObservability,
} from '@skiptrace/runtime';
import { gatewayConfigFrom, gatewayEnv } from './config.ts';
import { wireGateway } from './wiring.ts';

const env = loadConfig(gatewayEnv);
const config = gatewayConfigFrom(env);
const logger = createLogger({ name: 'gateway', level: env.LOG_LEVEL });
const shutdown = createShutdown(logger);
exitOnSignals(shutdown, logger);
const observability = loadConfig(observabilityEnvSchema);
await startObservability(observability, { service: 'gateway', logger, shutdown });
const health = createHealth({ metrics: metricsOptionsFrom(observability) });
const adapters = { logger, shutdown, health, service: 'gateway' };

const db = await openDatabase(env, adapters);
const bus = await openBus(env, adapters);
const kv = openKeyValue(env, adapters);

const app = await wireGateway({ db, bus, kv, logger, health }, config);
finishApp(app);
const port = await listen(app, env.PORT, { shutdown, health, logger });
logger.info({ port, issuer: config.bearer.issuer }, 'gateway listening');
