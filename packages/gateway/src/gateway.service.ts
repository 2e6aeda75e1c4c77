import { createAuditLog } from '@skiptrace/audit';
import { buildOpenApiDocument } from '@skiptrace/contracts';
import { createRateLimiter } from '@skiptrace/kv';
import { errorHandler, inputBoundary, jsonBody, observeHttp, requestContext, routeNotFound } from '@skiptrace/runtime';
import express, { type Request } from 'express';
import { auditRefusals } from './audit-refusals.ts';
import { createDocsRouter } from './docs.router.ts';
import type { GatewayDeps } from './gateway.types.ts';
import { accountRateLimit } from './rate-limit.ts';
import { createSkiptraceRouter } from './skiptrace.router.ts';

const isBatchUpload = (req: Request) =>
  req.method === 'POST' &&
  (req.path === '/property/skiptrace/batches' || req.path === '/property/skiptrace/batches/preview');
/** The requests that start work, checked against the account's monthly quotas. */
const startsWork = (req: Request) =>
  req.method === 'POST' &&
  (req.path === '/property/skiptrace' ||
    req.path === '/property/skiptrace/batches' ||
    /^\/property\/skiptrace\/batches\/\d+\/rerun$/.test(req.path));

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
  api.use(createDocsRouter());
  api.use(deps.auth.authenticate);
  if (deps.config.rateLimitPerMinute > 0) {
    const limiter = createRateLimiter(deps.kv, { limit: deps.config.rateLimitPerMinute, windowMs: 60_000 });
    api.use(accountRateLimit(limiter, deps.config.rateLimitPerMinute));
  }
  const quota = deps.quota;
  if (quota) api.use((req, res, next) => (startsWork(req) ? quota(req, res, next) : next()));
  // Batch uploads stream their body into the store; every other JSON body is parsed here.
  const parseJson = jsonBody(deps.config.maxBodyBytes);
  api.use((req, res, next) => (isBatchUpload(req) ? next() : parseJson(req, res, next)));
  // Extra routers first: /property/skiptrace/batches must win over /property/skiptrace/:id.
  for (const [path, router] of Object.entries(deps.routers ?? {})) api.use(path, router);
  api.use(createSkiptraceRouter(deps));
  api.use(routeNotFound(api));

  if (deps.console) app.use('/console', deps.console);
  app.use('/api/v1', api);
  app.use('/api/v1', auditRefusals(createAuditLog(deps.db)));
  app.use('/api/v1', errorHandler());
  return app;
}
