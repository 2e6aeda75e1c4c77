/**
 * Prometheus metrics: one registry per process, the catalogue of every series the platform
 * exports, the HTTP middleware and the GET /metrics handler. Libraries record through the
 * `record*` functions below (no-ops while metrics are off), so the one-process system and
 * the separate services report the same series from the same code.
 */
import { timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';
import { ApiError } from './api-error.ts';

export const metricsRegistry = new Registry();
let enabled = true;
let defaultsCollected = false;

/** Latency buckets in seconds, shared by the HTTP, trace and webhook histograms. */
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const registers = [metricsRegistry];
const httpRequests = new Counter({
  name: 'skiptrace_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status class',
  labelNames: ['method', 'route', 'status_class'] as const,
  registers,
});
const httpDuration = new Histogram({
  name: 'skiptrace_http_request_duration_seconds',
  help: 'Time from request to the end of the response, seconds',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: SECONDS_BUCKETS,
  registers,
});
const traces = new Counter({
  name: 'skiptrace_traces_total',
  help: 'Skip traces (not batch rows) by outcome: completed, no_match, failed when the result is stored; pending when a synchronous caller was answered before it (its result is counted again when stored)',
  labelNames: ['outcome'] as const,
  registers,
});
const traceDuration = new Histogram({
  name: 'skiptrace_trace_duration_seconds',
  help: 'Time from storing a property to storing its result, seconds',
  buckets: SECONDS_BUCKETS,
  registers,
});
const batchRows = new Counter({
  name: 'skiptrace_batch_rows_total',
  help: 'Batch rows traced, by outcome (completed, no_match, failed)',
  labelNames: ['outcome'] as const,
  registers,
});
const webhookDeliveries = new Counter({
  name: 'skiptrace_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: success, retry (scheduled again), failed (gave up), disabled (endpoint switched off)',
  labelNames: ['outcome'] as const,
  registers,
});
const webhookDuration = new Histogram({
  name: 'skiptrace_webhook_delivery_duration_seconds',
  help: 'Time of one webhook delivery attempt (request to response or error), seconds',
  buckets: SECONDS_BUCKETS,
  registers,
});
const busMessages = new Counter({
  name: 'skiptrace_bus_messages_total',
  help: 'Bus messages published (queue label: the routing key), consumed and dead-lettered (queue label: the queue)',
  labelNames: ['event', 'queue'] as const,
  registers,
});
const busConsumers = new Gauge({
  name: 'skiptrace_bus_consumers',
  help: 'Consumers this process runs on each queue',
  labelNames: ['queue'] as const,
  registers,
});

/** Values read when Prometheus scrapes, e.g. a pool's wait queue or a table's counts. */
type Source = () => number;
const poolSources = new Set<Source>();
new Gauge({
  name: 'skiptrace_db_pool_waiting',
  help: 'Queries waiting for a database connection from the pool, now',
  registers,
  collect() {
    let sum = 0;
    for (const source of poolSources) sum += source();
    this.set(sum);
  },
});
let batchCounts: (() => Promise<Record<string, number>>) | undefined;
new Gauge({
  name: 'skiptrace_batches',
  help: 'Batches by status (read from the store at scrape time)',
  labelNames: ['status'] as const,
  registers,
  async collect() {
    if (!batchCounts) return;
    this.reset();
    for (const [status, n] of Object.entries(await batchCounts())) this.set({ status }, n);
  },
});

/** Turns recording off (or on again); off, the record* functions do nothing. */
export function setMetricsEnabled(on: boolean): void {
  enabled = on;
}

export type TraceMetricOutcome = 'completed' | 'no_match' | 'failed' | 'pending';

/** A synchronous trace's outcome; `seconds` from storing the property to its result. */
export function recordTrace(outcome: TraceMetricOutcome, seconds?: number): void {
  if (!enabled) return;
  traces.inc({ outcome });
  if (seconds !== undefined) traceDuration.observe(seconds);
}

export function recordBatchRows(outcome: string, rows: number): void {
  if (enabled && rows > 0) batchRows.inc({ outcome }, rows);
}

export type WebhookOutcome = 'success' | 'retry' | 'failed' | 'disabled';

export function recordWebhookDelivery(outcome: WebhookOutcome, seconds?: number): void {
  if (!enabled) return;
  webhookDeliveries.inc({ outcome });
  if (seconds !== undefined) webhookDuration.observe(seconds);
}

export type BusEvent = 'published' | 'consumed' | 'dead_lettered';

export function recordBusMessage(event: BusEvent, queue: string): void {
  if (enabled) busMessages.inc({ event, queue });
}

/** +1 when a consumer starts on `queue`, -1 when it stops. */
export function recordBusConsumer(queue: string, delta: 1 | -1): void {
  if (enabled) busConsumers.inc({ queue }, delta);
}

/** Adds a connection pool's waiting count to skiptrace_db_pool_waiting; returns a remover. */
export function addPoolSource(source: Source): () => void {
  poolSources.add(source);
  return () => void poolSources.delete(source);
}

/** Where skiptrace_batches reads its counts from (the process holding the batches API). */
export function setBatchCountsSource(source: () => Promise<Record<string, number>>): void {
  batchCounts = source;
}

/** A process's series as metricsRegistry.getMetricsAsJSON() gives them (what a peer sends over IPC). */
export type MetricsSnapshot = MetricObjectWithValues<MetricValue<string>>[];
/** Another process's series (e.g. the one-process system's batch worker child). */
export type MetricsPeer = () => Promise<MetricsSnapshot>;
const peers = new Set<MetricsPeer>();

/**
 * Serves a peer process's series on this process's GET /metrics, summed with this process's
 * own (counters, gauges and histograms add up; a peer that does not collect Node's default
 * metrics leaves process_* and nodejs_* to this process). Returns a remover.
 */
export function addMetricsPeer(peer: MetricsPeer): () => void {
  peers.add(peer);
  return () => void peers.delete(peer);
}

async function exposition(): Promise<string> {
  if (peers.size === 0) return metricsRegistry.metrics();
  const own = await metricsRegistry.getMetricsAsJSON();
  const others = await Promise.all([...peers].map((peer) => peer().catch(() => [])));
  return AggregatorRegistry.aggregate([own, ...others.filter((m) => m.length > 0)]).metrics();
}

export const metricsEnabled = (): boolean => enabled;

export interface HttpLabels {
  method: string;
  route: string;
  status_class: string;
}

/** One answered HTTP request; see observeHttp() in http-observe.ts. */
export function recordHttpRequest(labels: HttpLabels, seconds: number): void {
  if (!enabled) return;
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
}

export interface MetricsRouterOptions {
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  token?: string;
}

/** GET /metrics in the Prometheus text format (404 while metrics are off). */
export function metricsRouter({ token }: MetricsRouterOptions = {}): Router {
  if (enabled && !defaultsCollected) {
    defaultsCollected = true;
    collectDefaultMetrics({ register: metricsRegistry });
  }
  const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;
  const router = Router();
  router.get('/metrics', async (req, res, next) => {
    if (!enabled) return next();
    if (expected) {
      const given = Buffer.from(req.get('authorization') ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        const err = new ApiError('unauthorized', 'a metrics token is required', { 'WWW-Authenticate': 'Bearer' });
        return void res.status(err.status).set(err.headers).json(err.body());
      }
    }
    res.set('Content-Type', metricsRegistry.contentType).send(await exposition());
  });
  return router;
}
