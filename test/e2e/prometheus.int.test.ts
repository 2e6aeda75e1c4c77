// A real Prometheus (Debian's package) scrapes the running one-process system's /metrics
// with the metrics token; a PromQL query over its HTTP API counts the traces this test made.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSystem, type System } from '@skiptrace/standalone';
import { clientCredentialsToken, demoClient, stopChild, waitUntil } from '@skiptrace/testing';

const PROMETHEUS_PORT = 18890;
const TOKEN = 'prometheus-scrape-token-0123456789';
const prom = `http://127.0.0.1:${PROMETHEUS_PORT}`;
let system: System;
let base: string;
let dir: string;
let prometheus: ChildProcess | undefined;
let token: string;

beforeAll(async () => {
  execFileSync('bash', ['scripts/ensure-prometheus.sh'], { stdio: 'inherit' });
  dir = await mkdtemp(join(tmpdir(), 'prometheus-e2e-'));
  system = await createSystem({
    PORT: '0',
    SKIPTRACE_DATA_DIR: join(dir, 'data'),
    SKIPTRACE_DEMO_ROWS: '200',
    METRICS_TOKEN: TOKEN,
    LOG_LEVEL: 'silent',
  });
  base = await system.start();
  await writeFile(join(dir, 'token'), TOKEN);
  await writeFile(
    join(dir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      'scrape_configs:',
      '  - job_name: skiptrace',
      `    authorization: { credentials_file: ${join(dir, 'token')} }`,
      `    static_configs: [{ targets: ['${new URL(base).host.replace('localhost', '127.0.0.1')}'] }]`,
      '',
    ].join('\n'),
  );
  prometheus = spawn(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${PROMETHEUS_PORT}`,
    ],
    { stdio: 'ignore' },
  );
  await waitUntil(async () => (await fetch(`${prom}/-/ready`).catch(() => undefined))?.ok === true, {
    timeoutMs: 30_000,
    message: 'prometheus ready',
  });
  token = await clientCredentialsToken(base, await demoClient(join(dir, 'data')));
}, 120_000);

afterAll(async () => {
  if (prometheus) await stopChild(prometheus);
  await system?.stop('test done');
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function query(promql: string): Promise<number | undefined> {
  const res = await fetch(`${prom}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { status: string; data: { result: { value: [number, string] }[] } };
  expect(body.status).toBe('success');
  const [sample] = body.data.result;
  return sample ? Number(sample.value[1]) : undefined;
}

describe('Prometheus scraping the one-process system', () => {
  it('scrapes with the token and counts the traces the test made', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    await waitUntil(async () => (await query('up{job="skiptrace"}')) === 1, {
      timeoutMs: 20_000,
      message: 'target up',
    });
    const TRACES = 5;
    for (let i = 0; i < TRACES; i++) {
      const res = await fetch(`${base}/api/v1/property/skiptrace`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ street_address: `${i + 1} Elm St`, city: 'Dayton', state: 'OH', zip_code: '45402' }),
      });
      expect(res.status).toBe(200);
    }
    const stored = 'sum(skiptrace_traces_total{job="skiptrace",outcome=~"completed|no_match|failed"})';
    await waitUntil(async () => (await query(stored)) === TRACES, {
      timeoutMs: 20_000,
      message: `${stored} = ${TRACES}`,
    });
    const requests =
      'sum(skiptrace_http_requests_total{job="skiptrace",method="POST",route="/api/v1/property/skiptrace",status_class="2xx"})';
    expect(await query(requests)).toBe(TRACES);
    expect(await query('sum(skiptrace_bus_consumers{job="skiptrace",queue="skiptrace.jobs"})')).toBeGreaterThanOrEqual(
      1,
    );
    expect(await query('process_resident_memory_bytes{job="skiptrace"}')).toBeGreaterThan(0);
  }, 90_000);
});
