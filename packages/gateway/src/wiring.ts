import {
  createAccounts,
  createClientsRouter,
  createMemberCheck,
  createMembers,
  createMembersRouter,
} from '@skiptrace/accounts';
import { auditContext, createAuditLog, createAuditRouter, startAuditSweep } from '@skiptrace/audit';
import { createBatchesRouter, createBatchRows } from '@skiptrace/batches';
import { createBearerAuth } from '@skiptrace/bearer';
import { createConsoleRouter, ensureConsoleBuilt } from '@skiptrace/console';
import { CONSOLE_CLIENT_ID } from '@skiptrace/contracts';
import { createQuotaGuard, createUsage, createUsageRouter } from '@skiptrace/usage';
import { createWebhooksRouter } from '@skiptrace/webhooks';
import type { KeyValueStore } from '@skiptrace/kv';
import type { MessageBus } from '@skiptrace/messaging';
import type { Health, Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type express from 'express';
import type { JSONWebKeySet } from 'jose';
import type { GatewayProcessConfig } from './config.ts';
import { createGatewayService } from './gateway.service.ts';
import type { GatewayAuth } from './gateway.types.ts';

export interface GatewayWiringDeps {
  db: Database;
  bus: MessageBus;
  kv: KeyValueStore;
  logger: Logger;
  health: Health;
  /**
   * The issuer's public keys when the OAuth server runs in the same process; absent, they
   * are fetched (and cached) from AUTH_JWKS_URL (default `<issuer>/oauth/jwks`).
   */
  jwks?: () => JSONWebKeySet;
  /** A sample CSV the console offers for a first batch (the one-process mode's demo data). */
  consoleSampleCsv?: string;
}

/**
 * The gateway's composition: bearer checks, the skip-trace API, the batch, webhook
 * subscription and client APIs under /api/v1, the web console at /console (built now when
 * missing or stale), /healthz and /readyz. Its own main.ts and the one-process system both
 * call this. Builds the app; does not listen.
 */
export async function wireGateway(deps: GatewayWiringDeps, config: GatewayProcessConfig): Promise<express.Express> {
  const { db, bus, kv, health } = deps;
  const logger = deps.logger.child({ scope: 'gateway' });
  const { issuer, audience, jwksUrl } = config.bearer;
  const bearer = deps.jwks
    ? createBearerAuth({ issuer, audience, jwks: deps.jwks })
    : createBearerAuth({ issuer, audience, jwksUrl: new URL(jwksUrl) });
  // A user's token is checked against the user as they are now (removed: 401; role lowered).
  const memberCheck = createMemberCheck(createMembers(db));
  const auth: GatewayAuth = {
    authenticate: (req, res, next) =>
      bearer.middleware(req, res, (err?: unknown) => (err ? next(err) : memberCheck(req, res, next))),
    requireScope: bearer.requireScope,
  };
  const consoleBuild = await ensureConsoleBuilt({ log: (msg) => logger.info(msg) });
  if (consoleBuild.built) logger.info({ ms: consoleBuild.ms }, 'console built');
  const consoleRouter = await createConsoleRouter({
    dir: consoleBuild.dir,
    issuer,
    clientId: CONSOLE_CLIENT_ID,
    sampleCsv: deps.consoleSampleCsv,
  });
  const usage = createUsage(db);
  const audit = createAuditLog(db);
  // Hourly, unref'd: it never holds the process open.
  startAuditSweep(audit, config.audit.retentionDays, logger);
  return createGatewayService({
    db,
    bus,
    quota: createQuotaGuard({ usage, bus, logger }).middleware,
    batchRows: createBatchRows({ db, bus, logger }),
    auth,
    kv,
    logger,
    health,
    config: config.http,
    console: consoleRouter,
    routers: {
      '/': createBatchesRouter({ db, bus, auth, logger, config: config.batches }),
      '/webhooks': createWebhooksRouter({
        db,
        kv,
        logger,
        config: config.webhooks,
        requireScope: bearer.requireScope,
      }),
      '/clients': createClientsRouter({
        accounts: createAccounts(db),
        requireScope: bearer.requireScope,
        logger,
        audit,
      }),
      '/members': createMembersRouter({
        db,
        audit,
        requireScope: bearer.requireScope,
        issuer,
        logger,
        onMemberChanged: memberCheck.forget,
      }),
      '/audit': createAuditRouter({ audit, requireScope: bearer.requireScope }),
      '/usage': createUsageRouter({
        usage,
        requireScope: bearer.requireScope,
        logger,
        rateLimitPerMinute: config.http.rateLimitPerMinute,
        onQuotaChanged: ({ req, accountId, before, after }) =>
          audit.record({
            ...auditContext(req),
            action: 'quota.changed',
            target: { type: 'account', id: accountId },
            details: { before, after },
          }),
      }),
    },
  });
}
