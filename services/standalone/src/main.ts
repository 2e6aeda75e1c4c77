// `pnpm start`: the whole platform in one process on embedded defaults.
import { createLogger, exitOnSignals } from '@skiptrace/runtime';
import { createSystem } from './system.ts';

const logger = createLogger({ name: 'skiptrace', level: process.env.LOG_LEVEL ?? 'info' });
const system = await createSystem(process.env, logger);
exitOnSignals({ run: (reason) => system.stop(reason) }, logger);
const url = await system.start();
logger.info({ url }, 'skip-trace platform listening');
