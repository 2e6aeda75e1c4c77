export { createGatewayService, type GatewayAuth, type GatewayConfig, type GatewayDeps } from './gateway.service.ts';
export { gatewayEnvSchema } from './config.ts';
