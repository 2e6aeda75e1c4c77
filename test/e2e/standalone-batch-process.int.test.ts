import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoQueryFor, generateContacts } from '@skiptrace/demo';
import { createSystem, type System } from '@skiptrace/standalone';
import {
  clientCredentialsToken,
  createTestDatabaseUrl,
  createTestVhost,
  demoClient,
  type TestDatabase,
  type TestVhost,
} from '@skiptrace/testing';

// The one-process system on PostgreSQL and RabbitMQ traces batch chunks in a child process
// of its own (SKIPTRACE_BATCH_WORKER=process, the default): a batch completes through it,
// the main process's /metrics includes the child's series, a killed child is restarted
// (its chunks come back from the queue), and the ordered shutdown stops it.
const METRICS_TOKEN = 'batch-process-metrics-token';
let system: System;
let base: string;
let token: string;
let dataDir: string;
let testDb: TestDatabase;
let vhost: TestVhost;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiptrace-batch-process-'));
  testDb = await createTestDatabaseUrl('e2e_batch_process');
  vhost = await createTestVhost('e2e-batch-process');
  system = await createSystem({
    PORT: '0',
    SKIPTRACE_DATA_DIR: dataDir,
    SKIPTRACE_DEMO_ROWS: '300',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.url,
    AMQP_URL: vhost.url,
    METRICS_TOKEN,
  });
  base = await system.start();
  token = await clientCredentialsToken(base, await demoClient(dataDir));
}, 120_000);

afterAll(async () => {
  await system?.stop('test done');
  await testDb?.drop();
  await vhost?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${base}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

async function runBatch(rows: number, seed: number): Promise<{ status: string; matched: number }> {
  const queries = [...generateContacts({ rows, seed: 42 })].map((r, i) => demoQueryFor(r, seed + i));
  const csv = [
    'street_address,city,state,zip_code,first_name,last_name',
    ...queries.map((q) =>
      [q.street_address, q.city, q.state, q.zip_code, q.first_name, q.last_name].map((v) => `"${v ?? ''}"`).join(','),
    ),
  ].join('\n');
  const upload = await api('/property/skiptrace/batches', {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: csv,
  });
  expect(upload.status).toBe(202);
  const { id } = (await upload.json()) as { id: string };
  let summary = { status: '', matched: 0 };
  for (let i = 0; i < 600 && summary.status !== 'completed'; i++) {
    summary = (await (await api(`/property/skiptrace/batches/${id}`)).json()) as typeof summary;
    if (summary.status !== 'completed') await new Promise((r) => setTimeout(r, 50));
  }
  return summary;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('one-process system with the batch chunk worker in a child process', () => {
  it('traces a batch in the child, and the main process serves the child’s metrics', async () => {
    const pid = system.batchWorker?.pid();
    expect(pid).toEqual(expect.any(Number));
    expect(pid).not.toBe(process.pid);
    const summary = await runBatch(40, 1);
    expect(summary.status).toBe('completed');
    expect(summary.matched).toBeGreaterThan(30);

    const metrics = await (
      await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    // Recorded only by the chunk worker, i.e. in the child.
    const rows = /^skiptrace_batch_rows_total\{outcome="completed"\} (\d+)/m.exec(metrics);
    expect(Number(rows?.[1])).toBeGreaterThanOrEqual(summary.matched);
    expect(metrics).toMatch(/^skiptrace_bus_consumers\{queue="skiptrace\.batch-chunks"\} 1$/m);
  });

  it('restarts a child that died, and batches complete again', async () => {
    const first = system.batchWorker!.pid()!;
    process.kill(first, 'SIGKILL');
    for (let i = 0; i < 200; i++) {
      const pid = system.batchWorker!.pid();
      if (pid && pid !== first) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(system.batchWorker!.pid()).toEqual(expect.any(Number));
    expect(system.batchWorker!.pid()).not.toBe(first);
    const summary = await runBatch(20, 2);
    expect(summary.status).toBe('completed');
  }, 60_000);

  it('stops the child in the ordered shutdown', async () => {
    const pid = system.batchWorker!.pid()!;
    expect(alive(pid)).toBe(true);
    await system.stop('test: shutdown');
    expect(alive(pid)).toBe(false);
  });
});
