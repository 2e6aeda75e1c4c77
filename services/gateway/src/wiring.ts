import { createBatchesRouter } from '@skiptrace/batches';
import { createBearerAuth } from '@skiptrace/bearer';
import { createWebhooksRouter } from '@skiptrace/dispatcher';
import type { KeyValueStore } from '@skiptrace/kv';
import type { MessageBus } from '@skiptrace/messaging';
import type { Health, Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type express from 'express';
import type { JSONWebKeySet } from 'jose';
import type { GatewayProcessConfig } from './config.ts';
import { createGatewayService } from './gateway.service.ts';

export interface GatewayWiringDeps {
  db: Database;
  bus: MessageBus;
  kv: KeyValueStore;
  logger: Logger;
  health: Health;
  /**
   * The issuer's public keys when the OAuth server runs in the same process; absent, they
   * are fetched (and cached) from `<issuer>/oauth/jwks`.
   */
  jwks?: () => JSONWebKeySet;
}

/**
 * The gateway's composition: bearer checks, the skip-trace API, the batch API and the
 * webhook subscription API under /api/v1, plus /healthz and /readyz. Its own main.ts and
 * the one-process system both call this. Builds the app; does not listen.
 */
export function wireGateway(deps: GatewayWiringDeps, config: GatewayProcessConfig): express.Express {
  const { db, bus, kv, health } = deps;
  const logger = deps.logger.child({ scope: 'gateway' });
  const { issuer, audience } = config.bearer;
  const bearer = deps.jwks
    ? createBearerAuth({ issuer, audience, jwks: deps.jwks })
    : createBearerAuth({ issuer, audience, jwksUrl: new URL(`${issuer}/oauth/jwks`) });
  const auth = { authenticate: bearer.middleware, requireScope: bearer.requireScope };
  return createGatewayService({
    db,
    bus,
    auth,
    kv,
    logger,
    health,
    config: config.http,
    routers: {
      '/': createBatchesRouter({ db, bus, auth, logger, config: config.batches }),
      '/webhooks': createWebhooksRouter({
        db,
        kv,
        logger,
        config: config.webhooks,
        requireScope: bearer.requireScope,
      }),
    },
  });
}
