/**
 * A RabbitMQ virtual host of its own for each integration test file: queues and exchanges
 * of parallel runs cannot collide, and dropping the vhost deletes all of them at once.
 * Needs rabbitmqctl on this machine with the right to administer the node; without it,
 * falls back to the shared vhost and a unique `prefix` the test must put on its names.
 */
import { randomBytes } from 'node:crypto';
import { run } from './exec.ts';
import { testUrls } from './services.ts';

export interface TestVhost {
  /** AMQP URL pointing at the vhost (or at the shared one when isolated is false). */
  url: string;
  vhost: string;
  /** False when rabbitmqctl was unavailable and the shared vhost is used. */
  isolated: boolean;
  /** Unique prefix for queue and exchange names; needed when isolated is false. */
  prefix: string;
  /** Deletes the vhost with everything in it (no-op when not isolated). Idempotent. */
  drop(): Promise<void>;
}

function vhostOf(url: URL): string {
  const path = decodeURIComponent(url.pathname.slice(1));
  return path === '' ? '/' : path;
}

export async function createTestVhost(name = 'test', baseUrl: string = testUrls().amqpUrl): Promise<TestVhost> {
  const id = `${name}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const base = new URL(baseUrl);
  const user = decodeURIComponent(base.username) || 'guest';
  try {
    await run('rabbitmqctl', ['add_vhost', id]);
  } catch {
    return { url: baseUrl, vhost: vhostOf(base), isolated: false, prefix: `${id}.`, drop: async () => undefined };
  }
  try {
    await run('rabbitmqctl', ['set_permissions', '-p', id, user, '.*', '.*', '.*']);
  } catch (error) {
    await run('rabbitmqctl', ['delete_vhost', id]).catch(() => undefined);
    throw error;
  }
  const url = new URL(baseUrl);
  url.pathname = `/${encodeURIComponent(id)}`;
  let dropped: Promise<void> | undefined;
  return {
    url: url.toString(),
    vhost: id,
    isolated: true,
    prefix: `${id}.`,
    drop() {
      dropped ??= run('rabbitmqctl', ['delete_vhost', id]).then(() => undefined);
      return dropped;
    },
  };
}
