export const API_VERSION = '1.0.0';
export * from './errors.ts';
export * from './property.ts';
export * from './oauth.ts';
export * from './messages.ts';
export * from './webhooks.ts';
export * from './openapi.ts';
