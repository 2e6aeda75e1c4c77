// The gateway's configuration and dependencies, apart from gateway.service.ts so that the
// routers it mounts can name them without importing the service that mounts them.
import type { ApiScope } from '@skiptrace/contracts';
import type { BatchRows } from '@skiptrace/core';
import type { KeyValueStore } from '@skiptrace/kv';
import type { MessageBus } from '@skiptrace/messaging';
import type { Health, Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type { RequestHandler, Router } from 'express';

export interface GatewayConfig {
  /** How long POST /property/skiptrace waits for the worker before answering `pending`, ms. */
  syncDeadlineMs: number;
  /** Largest JSON body accepted, bytes. */
  maxBodyBytes: number;
  /** Public base URL of the API, for the OpenAPI `servers` entry. */
  publicUrl: string;
  /** Issuer (OAuth server) base URL, for the OpenAPI security scheme. */
  authUrl: string;
  /** Requests per account per minute; 0 turns the limit off. */
  rateLimitPerMinute: number;
}

export interface GatewayAuth {
  /** Verifies the bearer token and sets req.auth; answers 401 otherwise. */
  authenticate: RequestHandler;
  requireScope(scope: ApiScope): RequestHandler;
}

export interface GatewayDeps {
  db: Database;
  bus: MessageBus;
  /** The batch rows among the properties (createBatchRows of @skiptrace/batches). */
  batchRows: BatchRows;
  auth: GatewayAuth;
  config: GatewayConfig;
  logger: Logger;
  health: Health;
  /** Shared store for the per-account rate limit (Redis across replicas). */
  kv: KeyValueStore;
  /** Extra routers mounted under /api/v1 after authentication, e.g. { '/webhooks': router }. */
  routers?: Record<string, Router>;
  /** The web console, served at /console (createConsoleRouter of @skiptrace/console). */
  console?: Router;
  /**
   * The monthly quotas' check (createQuotaGuard of @skiptrace/usage), run before a trace or
   * a batch upload is accepted: 429 code 1301 once a quota is used up.
   */
  quota?: RequestHandler;
}
