import { Router, type RequestHandler } from 'express';
import type { Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type { KeyValueStore } from '@skiptrace/kv';
import type { MessageBus } from '@skiptrace/messaging';
import { WEBHOOK_TEST_EVENT_TYPE, webhooksApi as api, type ApiScope } from '@skiptrace/contracts';
import { ApiError, mountRoute, notFound } from '@skiptrace/runtime';
import type { WebhookConfig } from './config.ts';
import { systemClock, type Clock } from './delivery-attempt.ts';
import {
  findDelivery,
  insertTestMessage,
  listDeliveries,
  recoverFailed,
  replayMessage,
} from './delivery-admin.repository.ts';
import * as endpoints from './endpoint.repository.ts';
import { scheduleMessage } from './schedule.ts';
import { generateSecret } from './signing.ts';
import { addressPolicy, ForbiddenAddressError, vetHost, type Resolver } from './ssrf-guard.ts';
import { auth } from './http-helpers.ts';

export interface WebhooksRouterDeps {
  db: Database;
  kv: KeyValueStore;
  config: WebhookConfig;
  logger: Logger;
  /** Accepted so the gateway can pass its usual deps; the API never publishes. */
  bus?: MessageBus;
  clock?: Clock;
  /** DNS resolver for the create-time SSRF check (tests inject one). */
  resolver?: Resolver;
  /** The gateway's scope check (@skiptrace/bearer's `requireScope`, which also sets WWW-Authenticate). */
  requireScope: (scope: ApiScope) => RequestHandler;
}

/**
 * The subscription API, mounted by the gateway at /api/v1/webhooks after bearer
 * authentication. Everything is scoped to req.auth.accountId: another account's
 * endpoint or delivery is 404. GETs need `read`, everything else `write`.
 */
export function createWebhooksRouter(deps: WebhooksRouterDeps): Router {
  const { db, kv, config } = deps;
  const clock = deps.clock ?? systemClock;
  const log = deps.logger.child({ scope: 'webhooks-api' });
  const router = Router();
  // JSON bodies are parsed once, by the gateway (within MAX_BODY_BYTES), before this router.
  const mount = { router, requireScope: deps.requireScope, base: '/webhooks' };

  async function checkTarget(url: string) {
    try {
      await vetHost(new URL(url).hostname, addressPolicy(config), deps.resolver);
    } catch (err) {
      const reason = err instanceof ForbiddenAddressError ? err.message : `host cannot be resolved`;
      throw new ApiError('validation_failed', `url: ${reason}`);
    }
  }
  async function ownEndpoint(accountId: string, id: string) {
    const row = await endpoints.findEndpoint(db, accountId, id);
    if (!row) throw notFound('webhook endpoint');
    return row;
  }
  const scheduleNow = (messageId: string, endpointId: string) =>
    scheduleMessage(kv, config.scheduleName, messageId, endpointId, clock.now());

  mountRoute(mount, api.createWebhookEndpoint, async ({ body }, req, res) => {
    await checkTarget(body.url);
    const row = await endpoints.insertEndpoint(db, {
      accountId: auth(req).accountId,
      url: body.url,
      events: body.events ?? null,
      description: body.description ?? null,
      secret: body.secret ?? generateSecret(),
    });
    log.info({ endpointId: row.id, accountId: row.account_id }, 'webhook endpoint created');
    res.status(201).location(`${req.baseUrl}/endpoints/${row.id}`).json(endpoints.endpointWithSecret(row));
  });

  mountRoute(mount, api.listWebhookEndpoints, async (_input, req, res) => {
    const rows = await endpoints.listEndpoints(db, auth(req).accountId);
    res.json({ data: rows.map(endpoints.endpointView) });
  });

  mountRoute(mount, api.getWebhookEndpoint, async ({ params }, req, res) => {
    res.json(endpoints.endpointView(await ownEndpoint(auth(req).accountId, params.id)));
  });

  mountRoute(mount, api.updateWebhookEndpoint, async ({ params, body: patch }, req, res) => {
    if (patch.url !== undefined) await checkTarget(patch.url);
    const row = await endpoints.updateEndpoint(db, auth(req).accountId, params.id, patch);
    if (!row) throw notFound('webhook endpoint');
    res.json(endpoints.endpointView(row));
  });

  mountRoute(mount, api.deleteWebhookEndpoint, async ({ params }, req, res) => {
    if (!(await endpoints.deleteEndpoint(db, auth(req).accountId, params.id))) throw notFound('webhook endpoint');
    res.status(204).end();
  });

  mountRoute(mount, api.rotateWebhookSecret, async ({ params }, req, res) => {
    const overlapUntil = new Date(clock.now() + config.rotationOverlapMs);
    const row = await endpoints.rotateSecret(db, auth(req).accountId, params.id, generateSecret(), overlapUntil);
    if (!row) throw notFound('webhook endpoint');
    res.json(endpoints.endpointWithSecret(row));
  });

  mountRoute(mount, api.testWebhookEndpoint, async ({ params }, req, res) => {
    const { accountId } = auth(req);
    const endpoint = await ownEndpoint(accountId, params.id);
    if (!endpoint.enabled) throw new ApiError('conflict', 'the endpoint is disabled; enable it first');
    const now = new Date(clock.now());
    const payload = JSON.stringify({ test: true, endpoint_id: endpoint.id, sent_at: now.toISOString() });
    const eventType = WEBHOOK_TEST_EVENT_TYPE;
    const id = await insertTestMessage(db, { endpointId: endpoint.id, accountId, eventType, payload, now });
    await scheduleNow(id, endpoint.id);
    res.status(202).json(await findDelivery(db, accountId, id));
  });

  mountRoute(mount, api.listWebhookDeliveries, async ({ params, query }, req, res) => {
    const endpoint = await ownEndpoint(auth(req).accountId, params.id);
    res.json({ data: await listDeliveries(db, endpoint.id, query) });
  });

  mountRoute(mount, api.recoverWebhookDeliveries, async ({ params, query: { since } }, req, res) => {
    const endpoint = await ownEndpoint(auth(req).accountId, params.id);
    if (!endpoint.enabled) throw new ApiError('conflict', 'the endpoint is disabled; enable it first');
    const ids = await recoverFailed(db, endpoint.id, new Date(since), new Date(clock.now()));
    for (const id of ids) await scheduleNow(id, endpoint.id);
    res.status(202).json({ recovered: ids.length });
  });

  mountRoute(mount, api.getWebhookDelivery, async ({ params }, req, res) => {
    const delivery = await findDelivery(db, auth(req).accountId, params.id);
    if (!delivery) throw notFound('webhook delivery');
    res.json(delivery);
  });

  mountRoute(mount, api.replayWebhookDelivery, async ({ params: { id } }, req, res) => {
    const { accountId } = auth(req);
    const result = await replayMessage(db, accountId, id, new Date(clock.now()));
    if (result === 'not_found') throw notFound('webhook delivery');
    if (result === 'in_flight') throw new ApiError('conflict', 'an attempt for this delivery is in flight');
    if (result === 'endpoint_disabled') throw new ApiError('conflict', 'the endpoint is disabled; enable it first');
    await scheduleNow(id, result.endpointId);
    res.status(202).json(await findDelivery(db, accountId, id));
  });

  return router;
}
