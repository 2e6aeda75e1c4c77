// `pnpm start`: the whole platform in one process on embedded defaults.
import { exitOnSignals } from '@skiptrace/runtime';
import { createSystem } from './system.ts';

// createSystem parses the environment (LOG_LEVEL included) once and builds the logger.
const system = await createSystem(process.env);
exitOnSignals({ run: (reason) => system.stop(reason) }, system.logger);
const url = await system.start();
system.logger.info({ url }, 'skip-trace platform listening');
