import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  ApiError,
  errorHandler,
  labelRoute,
  metricsRouter,
  observeHttp,
  recordBusMessage,
  recordTrace,
  routeNotFound,
} from '../src/index.ts';

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(observeHttp());
  app.use(metricsRouter({ token: 'scrape-secret' }));
  const api = express.Router();
  api.get('/things/:id', (req, res) => {
    if (req.params.id === 'bad') throw new ApiError('validation_failed', 'bad id');
    res.json({ id: req.params.id });
  });
  api.use(routeNotFound());
  app.use('/api/v1', api);
  // A mounted app that is not an Express router labels its own requests.
  app.use('/foreign', (req, res) => {
    labelRoute(req, '/foreign/*');
    res.status(204).end();
  });
  app.use(errorHandler());
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const scrape = async () => {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer scrape-secret' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
};
const sample = (text: string, series: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('GET /metrics', () => {
  it('refuses a scrape without the token with the Error body', async () => {
    const none = await fetch(`${base}/metrics`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: 1100, message: 'a metrics token is required' });
    const wrong = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer scrape-secreT' } });
    expect(wrong.status).toBe(401);
  });

  it('labels requests by route template and status class, never by raw path', async () => {
    const before = await scrape();
    const ok = 'skiptrace_http_requests_total{method="GET",route="/api/v1/things/:id",status_class="2xx"}';
    const bad = 'skiptrace_http_requests_total{method="GET",route="/api/v1/things/:id",status_class="4xx"}';
    const missing = 'skiptrace_http_requests_total{method="GET",route="unmatched",status_class="4xx"}';
    const foreign = 'skiptrace_http_requests_total{method="POST",route="/foreign/*",status_class="2xx"}';
    await fetch(`${base}/api/v1/things/12345`);
    await fetch(`${base}/api/v1/things/67890`);
    await fetch(`${base}/api/v1/things/bad`);
    await fetch(`${base}/api/v1/nowhere/acct_42`);
    await fetch(`${base}/foreign/acct_42/x`, { method: 'POST' });
    const after = await scrape();
    expect(sample(after, ok) - sample(before, ok)).toBe(2);
    expect(sample(after, bad) - sample(before, bad)).toBe(1);
    expect(sample(after, missing) - sample(before, missing)).toBe(1);
    expect(sample(after, foreign) - sample(before, foreign)).toBe(1);
    // In no label value (a process gauge's number may well contain 12345: 20223123456 bytes).
    expect(after).not.toMatch(/"[^"]*(12345|67890|acct_42)[^"]*"/);
    expect(after).toContain(
      'skiptrace_http_request_duration_seconds_count{method="GET",route="/api/v1/things/:id",status_class="2xx"}',
    );
  });

  it('exports the default process metrics and the library series', async () => {
    recordTrace('no_match', 0.02);
    recordBusMessage('consumed', 'skiptrace.jobs');
    const text = await scrape();
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(sample(text, 'skiptrace_traces_total{outcome="no_match"}')).toBeGreaterThanOrEqual(1);
    expect(text).toContain('skiptrace_trace_duration_seconds_bucket{le="0.025"}');
    expect(
      sample(text, 'skiptrace_bus_messages_total{event="consumed",queue="skiptrace.jobs"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toContain('skiptrace_db_pool_waiting 0');
    for (const name of ['skiptrace_webhook_deliveries_total', 'skiptrace_batch_rows_total', 'skiptrace_batches']) {
      expect(text).toContain(`# TYPE ${name}`);
    }
  });
});
