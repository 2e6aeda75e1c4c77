/**
 * Test-only broker administration: a vhost per test file, and the lock that keeps a broker
 * restart out of the middle of this package's other RabbitMQ tests. The broker is the test
 * run's RabbitMQ container (or, with SKIPTRACE_TEST_SERVICES=local, the machine's own):
 * @skiptrace/testing says which and acts on it.
 */
import { spawn } from 'node:child_process';
import amqp from 'amqplib';
import { createTestVhost as createVhost, startRabbit, testUrls } from '@skiptrace/testing';

export { rabbitmqctl } from '@skiptrace/testing';

export const baseAmqpUrl = testUrls().amqpUrl;

export interface TestVhost {
  name: string;
  url: string;
  remove(): Promise<void>;
}

/** A fresh vhost guest may use, so concurrent test files never share queues or exchanges. */
export async function createTestVhost(label: string): Promise<TestVhost> {
  const vhost = await createVhost(`test-${label}`);
  if (!vhost.isolated) throw new Error('these tests need a vhost of their own (rabbitmqctl or the management API)');
  return { name: vhost.vhost, url: vhost.url, remove: () => vhost.drop() };
}

/**
 * Tests that restart the broker take this lock exclusively; tests that need it up take it
 * shared, so a restart never lands in the middle of them. One lock per broker (its AMQP
 * port). The lock is held by a `flock` child whose stdin we keep open: if this process
 * dies, so does the lock.
 */
const BROKER_LOCK = `/tmp/skiptrace-rabbitmq-restart-${new URL(baseAmqpUrl).port || '5672'}.lock`;

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

/** Starts the broker if a restart left it stopped, then waits until it takes connections. */
export async function ensureBrokerRunning(): Promise<void> {
  if (await acceptsConnections()) return;
  await startRabbit();
}
