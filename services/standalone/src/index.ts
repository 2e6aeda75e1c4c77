export { createSystem, type System } from './system.ts';
export { demoOwnerWorld } from './demo-owners.ts';
export {
  standaloneEnv,
  standaloneOwnEnv,
  standaloneConfigFrom,
  SERVICE_ENVS,
  type StandaloneConfig,
} from './config.ts';
