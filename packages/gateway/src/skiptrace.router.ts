import { auditContext, createAuditLog } from '@skiptrace/audit';
import { skiptraceApi, type SkipTraceJob } from '@skiptrace/contracts';
import {
  checkIdempotencyKey,
  eraseProperty,
  getProperty,
  hasHistoryFilters,
  insertProperties,
  listProperties,
  propertyIdempotency,
  requestHash,
  searchProperties,
  standardizedAddressOf,
  toResponse,
  type NewProperty,
  type PropertyRow,
} from '@skiptrace/core';
import { RequestTimeoutError } from '@skiptrace/messaging';
import {
  accountOf,
  createBatcher,
  decodeCursor,
  encodeCursor,
  mountRoute,
  notFound,
  recordTrace,
  unavailable,
} from '@skiptrace/runtime';
import { Router } from 'express';
import type { z } from 'zod';
import type { GatewayDeps } from './gateway.types.ts';
import { sendJobReply } from './reply.ts';

/** Keyset cursors of this listing carry the kind `id`. */
const CURSOR = 'id';

export function createSkiptraceRouter(deps: GatewayDeps): Router {
  const { db, bus, auth, config, batchRows } = deps;
  const router = Router();
  // Concurrent submissions share one INSERT (and one commit) instead of one each.
  const insert = createBatcher((items: NewProperty[]) => insertProperties(db, items), {
    maxBatch: 200,
    maxConcurrent: 4,
  });

  const mount = { router, requireScope: auth.requireScope };
  const audit = createAuditLog(db);

  mountRoute(mount, skiptraceApi.skipTrace, async ({ body: property, headers }, req, res) => {
    const key = checkIdempotencyKey(headers['Idempotency-Key']);
    const hash = key ? requestHash(property) : '';
    if (key) {
      const earlier = await propertyIdempotency.find(db, accountOf(req), key, hash);
      if (earlier) {
        const row = await getProperty(db, batchRows, accountOf(req), earlier);
        if (row) return void res.json(toResponse(row));
      }
    }
    // Refuse quickly while the broker is known to be down, before anything is stored.
    if (!bus.isReady()) throw unavailable('the broker');
    const row = await insert({ accountId: accountOf(req), clientId: req.auth?.clientId, property });
    if (key && !(await propertyIdempotency.remember(db, accountOf(req), key, hash, row.id))) {
      // A concurrent request with the same key won; answer with its property instead.
      await eraseProperty(db, batchRows, accountOf(req), row.id);
      const winner = await propertyIdempotency.find(db, accountOf(req), key, hash);
      const winnerRow = winner ? await getProperty(db, batchRows, accountOf(req), winner) : undefined;
      if (winnerRow) return void res.json(toResponse(winnerRow));
    }
    const job: z.infer<typeof SkipTraceJob> = {
      propertyId: Number(row.id),
      accountId: accountOf(req),
      property,
      requestedAt: new Date().toISOString(),
    };
    try {
      const reply = await bus.requestJson('job.skiptrace', job, {
        messageId: `trace-${row.id}`,
        timeoutMs: config.syncDeadlineMs,
      });
      sendJobReply(res, reply, job.propertyId);
    } catch (err) {
      // Deadline passed, or the broker dropped mid-request: the row is stored and the
      // recovery sweep republishes it if the job never reached the broker. Poll by id.
      if (!(err instanceof RequestTimeoutError)) req.log.warn({ err, id: row.id }, 'job publish failed; left to sweep');
      recordTrace('pending');
      res.json(toResponse(row));
    }
  });

  /** A History entry: the result, its batch and its address in USPS form. */
  const listed = (row: PropertyRow) => ({
    ...toResponse(row),
    ...(row.batch_id !== null && { batch_id: row.batch_id }),
    standardized_address: standardizedAddressOf(row),
  });

  mountRoute(mount, skiptraceApi.listSkipTraces, async ({ query }, req, res) => {
    const { limit, cursor, ...filters } = query;
    const after = cursor ? decodeCursor(CURSOR, cursor) : undefined;
    let page: PropertyRow[];
    let next: string | undefined;
    if (hasHistoryFilters(filters)) {
      ({ rows: page, next } = await searchProperties(db, batchRows, accountOf(req), filters, limit, after));
    } else {
      const rows = await listProperties(db, batchRows, accountOf(req), limit + 1, after);
      page = rows.slice(0, limit);
      if (rows.length > limit) next = String(page[page.length - 1]!.id);
    }
    if (next !== undefined) {
      const cursorText = encodeCursor(CURSOR, next);
      const search = new URLSearchParams({ limit: String(limit) });
      for (const [name, value] of Object.entries(filters)) if (value !== undefined) search.set(name, String(value));
      search.set('cursor', cursorText);
      res.set('X-Next-Cursor', cursorText);
      res.set('Link', `<${req.baseUrl}/property/skiptrace?${search}>; rel="next"`);
    }
    res.json(page.map(listed));
  });

  mountRoute(mount, skiptraceApi.getSkipTrace, async ({ params }, req, res) => {
    const row = await getProperty(db, batchRows, accountOf(req), params.id);
    if (!row) throw notFound('skip-trace result');
    res.json(toResponse(row));
  });

  mountRoute(mount, skiptraceApi.deletePlant, async ({ params }, req, res) => {
    const deleted = await eraseProperty(db, batchRows, accountOf(req), params.id);
    if (!deleted) throw notFound('property');
    // The entry names the property's id only: its address and phones are gone with it.
    await audit.record({ ...auditContext(req), action: 'result.erased', target: { type: 'property', id: params.id } });
    res.status(204).end();
  });

  return router;
}
