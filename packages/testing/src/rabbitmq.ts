/**
 * A RabbitMQ virtual host of its own for each integration test file: queues and exchanges
 * of parallel runs cannot collide, and dropping the vhost deletes all of them at once.
 * On the run's RabbitMQ container the vhost is made through the management API (a
 * published port; fast). On local services (SKIPTRACE_TEST_SERVICES=local, or a script
 * outside the test run such as a bench) through rabbitmqctl on this machine; without it, falls back to the shared vhost and a unique
 * `prefix` the test must put on its names.
 */
import { randomBytes } from 'node:crypto';
import { run } from './exec.ts';
import { SERVICE_ENV, onContainers, serviceContainer, testUrls } from './services.ts';

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

/**
 * `rabbitmqctl ARGS...` against the run's broker: `docker exec` in its container, or on
 * local services the machine's rabbitmqctl. Returns stdout.
 */
export async function rabbitmqctl(...args: string[]): Promise<string> {
  if (!onContainers()) return run('rabbitmqctl', args);
  const id = serviceContainer('rabbitmq');
  if (!id) throw new Error(`rabbitmqctl: no RabbitMQ container in this run (${SERVICE_ENV.rabbitmqContainer} unset)`);
  return run('docker', ['exec', id, 'rabbitmqctl', ...args]);
}

async function apiCall(method: string, path: string, body?: unknown): Promise<void> {
  const apiUrl = process.env[SERVICE_ENV.rabbitApiUrl];
  if (!apiUrl) throw new Error(`${SERVICE_ENV.rabbitApiUrl} unset: no RabbitMQ management API in this run`);
  const response = await rabbitApi(apiUrl, method, path, body);
  if (!response.ok && !(method === 'DELETE' && response.status === 404))
    throw new Error(`RabbitMQ management API: ${method} ${path} answered ${response.status} ${await response.text()}`);
}

export async function createTestVhost(name = 'test', baseUrl: string = testUrls().amqpUrl): Promise<TestVhost> {
  const id = `${name}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const base = new URL(baseUrl);
  const user = decodeURIComponent(base.username) || 'guest';
  const url = new URL(baseUrl);
  url.pathname = `/${encodeURIComponent(id)}`;
  let drop: () => Promise<void>;
  if (onContainers()) {
    const path = `/api/vhosts/${encodeURIComponent(id)}`;
    await apiCall('PUT', path);
    try {
      const permissions = { configure: '.*', write: '.*', read: '.*' };
      await apiCall('PUT', `/api/permissions/${encodeURIComponent(id)}/${encodeURIComponent(user)}`, permissions);
    } catch (error) {
      await apiCall('DELETE', path).catch(() => undefined);
      throw error;
    }
    drop = () => apiCall('DELETE', path);
  } else {
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
    drop = () => run('rabbitmqctl', ['delete_vhost', id]).then(() => undefined);
  }
  let dropped: Promise<void> | undefined;
  return {
    url: url.toString(),
    vhost: id,
    isolated: true,
    prefix: `${id}.`,
    drop() {
      dropped ??= drop();
      return dropped;
    },
  };
}

/** One request to the RabbitMQ management API at apiUrl (http://user:password@host:port). */
export async function rabbitApi(apiUrl: string, method: string, path: string, body?: unknown): Promise<Response> {
  const base = new URL(apiUrl);
  const auth = Buffer.from(`${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`).toString(
    'base64',
  );
  base.username = '';
  base.password = '';
  return fetch(new URL(path, base), {
    method,
    headers: { authorization: `Basic ${auth}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
}

/** The management API answers an authenticated request. */
export async function managementReady(apiUrl: string): Promise<boolean> {
  try {
    return (await rabbitApi(apiUrl, 'GET', '/api/overview')).ok;
  } catch {
    return false;
  }
}
