import { buildOpenApiDocument } from '@skiptrace/contracts';
import { createRateLimiter, type KeyValueStore } from '@skiptrace/kv';
import type { MessageBus } from '@skiptrace/messaging';
import {
  errorHandler,
  inputBoundary,
  jsonBody,
  observeHttp,
  requestContext,
  routeNotFound,
  type Health,
  type Logger,
} from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import express, { type Request, type RequestHandler, type Router } from 'express';
import { docsRoutes } from './docs.routes.ts';
import { accountRateLimit } from './rate-limit.ts';
import { skiptraceRoutes } from './routes/skiptrace.routes.ts';

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
  requireScope(scope: 'read' | 'write'): RequestHandler;
}

export interface GatewayDeps {
  db: Database;
  bus: MessageBus;
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
}

const isBatchUpload = (req: Request) => req.method === 'POST' && req.path === '/property/skiptrace/batches';

/** Builds the public API app (does not listen). */
export function createGatewayService(deps: GatewayDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', true);
  app.use(observeHttp());
  app.use(requestContext(deps.logger));
  app.use(inputBoundary());
  app.use(deps.health.router());

  const openapi = buildOpenApiDocument({ apiUrl: deps.config.publicUrl, authUrl: deps.config.authUrl });
  const api = express.Router();
  api.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  api.use(docsRoutes());
  api.use(deps.auth.authenticate);
  if (deps.config.rateLimitPerMinute > 0) {
    const limiter = createRateLimiter(deps.kv, { limit: deps.config.rateLimitPerMinute, windowMs: 60_000 });
    api.use(accountRateLimit(limiter, deps.config.rateLimitPerMinute));
  }
  // Batch uploads stream their body into the store; every other JSON body is parsed here.
  const parseJson = jsonBody(deps.config.maxBodyBytes);
  api.use((req, res, next) => (isBatchUpload(req) ? next() : parseJson(req, res, next)));
  // Extra routers first: /property/skiptrace/batches must win over /property/skiptrace/:id.
  for (const [path, router] of Object.entries(deps.routers ?? {})) api.use(path, router);
  api.use(skiptraceRoutes(deps));
  api.use(routeNotFound(api));

  if (deps.console) app.use('/console', deps.console);
  app.use('/api/v1', api);
  app.use('/api/v1', errorHandler());
  return app;
}
