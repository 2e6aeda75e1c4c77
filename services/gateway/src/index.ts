export { createGatewayService, type GatewayAuth, type GatewayConfig, type GatewayDeps } from './gateway.service.ts';
export { gatewayEnv, gatewayConfigFrom, type GatewayEnv, type GatewayProcessConfig } from './config.ts';
export { wireGateway, type GatewayWiringDeps } from './wiring.ts';
