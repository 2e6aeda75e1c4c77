/** Test-only broker administration through rabbitmqctl: a vhost per test file, restarts. */
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import amqp from 'amqplib';
import { waitUntil } from '@skiptrace/testing';

const run = promisify(execFile);

export const baseAmqpUrl = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';

export async function rabbitmqctl(...args: string[]): Promise<string> {
  const { stdout } = await run('rabbitmqctl', args, { timeout: 120_000 });
  return stdout;
}

export interface TestVhost {
  name: string;
  url: string;
  remove(): Promise<void>;
}

/** A fresh vhost guest may use, so concurrent test files never share queues or exchanges. */
export async function createTestVhost(label: string): Promise<TestVhost> {
  const name = `test-${label}-${randomUUID().slice(0, 8)}`;
  await rabbitmqctl('add_vhost', name);
  await rabbitmqctl('set_permissions', '-p', name, 'guest', '.*', '.*', '.*');
  const url = new URL(baseAmqpUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return { name, url: url.toString(), remove: () => rabbitmqctl('delete_vhost', name).then(() => undefined) };
}

/**
 * Tests that restart the broker take this lock exclusively; tests that need it up take it
 * shared, so within this machine a restart never lands in the middle of them. The lock is
 * held by a `flock` child whose stdin we keep open: if this process dies, so does the lock.
 */
const BROKER_LOCK = '/tmp/skiptrace-rabbitmq-restart.lock';

export async function holdBrokerLock(mode: 'shared' | 'exclusive'): Promise<() => Promise<void>> {
  const child = spawn('flock', [mode === 'shared' ? '-s' : '-x', BROKER_LOCK, '-c', 'echo locked; cat >/dev/null'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`flock exited with ${code} before locking`)));
  });
  return async () => {
    child.stdin.end();
    await exited;
  };
}

async function acceptsConnections(): Promise<boolean> {
  try {
    const connection = await amqp.connect(baseAmqpUrl);
    await connection.close();
    return true;
  } catch {
    return false;
  }
}

/** Starts the broker app if a restart left it stopped, then waits until it takes connections. */
export async function ensureBrokerRunning(): Promise<void> {
  if (await acceptsConnections()) return;
  try {
    await rabbitmqctl('start_app');
  } catch {
    await run('rabbitmq-server', ['-detached'], { timeout: 60_000 });
  }
  await waitUntil(acceptsConnections, {
    timeoutMs: 120_000,
    intervalMs: 250,
    message: 'RabbitMQ to accept connections',
  });
}
