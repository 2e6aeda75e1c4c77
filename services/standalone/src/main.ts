// `pnpm start`: the whole platform in one process on embedded defaults.
import { createLogger, exitOnSignals, loadConfig, startTracing } from '@skiptrace/runtime';
import { standaloneConfigFrom, standaloneEnv } from './config.ts';
import { createSystem } from './system.ts';

// The parsed LOG_LEVEL (a bad value stops here, with every bad variable named).
const { env, observability } = standaloneConfigFrom(loadConfig(standaloneEnv));
const logger = createLogger({ name: 'skiptrace', level: env.LOG_LEVEL });
// Tracing is process-wide: started before the system so its first spans are exported.
const tracing = await startTracing(observability.tracing, logger);
const system = await createSystem(process.env, logger);
exitOnSignals(
  {
    run: async (reason) => {
      await system.stop(reason);
      await tracing.shutdown();
    },
  },
  logger,
);
const url = await system.start();
logger.info({ url }, 'skip-trace platform listening');
