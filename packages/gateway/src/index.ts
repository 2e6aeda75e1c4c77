export { createGatewayService } from './gateway.service.ts';
export type { GatewayAuth, GatewayConfig, GatewayDeps } from './gateway.types.ts';
export { gatewayEnv, gatewayConfigFrom, type GatewayEnv, type GatewayProcessConfig } from './config.ts';
export { wireGateway, type GatewayWiringDeps } from './wiring.ts';
