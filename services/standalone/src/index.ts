export { createSystem, type System } from './system.ts';
export {
  standaloneEnv,
  standaloneOwnEnv,
  standaloneConfigFrom,
  SERVICE_ENVS,
  type StandaloneConfig,
} from './config.ts';
