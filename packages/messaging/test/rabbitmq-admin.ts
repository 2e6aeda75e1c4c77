/** Test-only broker administration through rabbitmqctl: a vhost per test file, restarts. */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';

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
