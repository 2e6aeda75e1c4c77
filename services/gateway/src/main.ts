// Composition root of the gateway when it runs as its own process.
import { openBus, openDatabase, openKeyValue, startProcess } from '@skiptrace/adapters';
import { finishApp, listen, loadConfig } from '@skiptrace/runtime';
import { gatewayConfigFrom, gatewayEnv, wireGateway } from '@skiptrace/gateway';

const env = loadConfig(gatewayEnv);
const config = gatewayConfigFrom(env);
const { logger, shutdown, health, adapters } = await startProcess('gateway', { logLevel: env.LOG_LEVEL });

const db = await openDatabase(env, adapters);
const bus = await openBus(env, adapters);
const kv = openKeyValue(env, adapters);

const app = await wireGateway({ db, bus, kv, logger, health }, config);
finishApp(app);
const port = await listen(app, env.PORT, { shutdown, health, logger });
logger.info({ port, issuer: config.bearer.issuer }, 'gateway listening');
