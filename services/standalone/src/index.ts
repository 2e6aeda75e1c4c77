export { createSystem, type System } from './system.ts';
export { standaloneEnvSchema } from './config.ts';
