/**
 * Stops and starts the local services for outage tests (does the client fail fast, does
 * it recover on its own?). These affect every process using the machine's services, so
 * keep outages short and always start the service again in `finally` / `afterAll`. Each
 * start resolves only once the service accepts connections and answers a command.
 */
import { readdirSync } from 'node:fs';
import { run } from './exec.ts';
import { postgresReady, rabbitReady, redisReady } from './probes.ts';
import { testUrls, waitUntil } from './services.ts';

/** How long a service may take to come back (ms). */
const START_TIMEOUT_MS = 60_000;

/** The pg_ctlcluster invocation for the machine's single cluster (`<version> main`). */
export function postgresCommand(action: 'start' | 'stop' | 'restart'): [string, string[]] {
  const version = readdirSync('/etc/postgresql').sort().at(-1);
  if (!version) throw new Error('no PostgreSQL cluster under /etc/postgresql');
  return ['pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', action]];
}

export const REDIS_START: [string, string[]] = [
  'redis-server',
  [
    '--daemonize',
    'yes',
    '--bind',
    '127.0.0.1',
    '-::1',
    '--port',
    '6379',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    '/var/lib/redis',
    '--logfile',
    '/var/log/redis/ci.log',
  ],
];
export const REDIS_STOP: [string, string[]] = ['redis-cli', ['-h', '127.0.0.1', '-p', '6379', 'shutdown', 'nosave']];
export const RABBIT_START: [string, string[]] = ['rabbitmqctl', ['start_app']];
export const RABBIT_STOP: [string, string[]] = ['rabbitmqctl', ['stop_app']];

async function waitFor(probe: () => Promise<boolean>, service: string): Promise<void> {
  await waitUntil(probe, { timeoutMs: START_TIMEOUT_MS, intervalMs: 100, message: `${service} accepting connections` });
}

async function waitGone(probe: () => Promise<boolean>, service: string): Promise<void> {
  await waitUntil(async () => !(await probe()), { timeoutMs: START_TIMEOUT_MS, message: `${service} stopped` });
}

export async function stopPostgres(): Promise<void> {
  await run(...postgresCommand('stop'));
  await waitGone(() => postgresReady(testUrls().databaseUrl), 'PostgreSQL');
}

export async function startPostgres(): Promise<void> {
  if (!(await postgresReady(testUrls().databaseUrl))) await run(...postgresCommand('start'));
  await waitFor(() => postgresReady(testUrls().databaseUrl), 'PostgreSQL');
}

export async function restartPostgres(): Promise<void> {
  await run(...postgresCommand('restart'));
  await waitFor(() => postgresReady(testUrls().databaseUrl), 'PostgreSQL');
}

export async function stopRedis(): Promise<void> {
  await run(...REDIS_STOP);
  await waitGone(() => redisReady(testUrls().redisUrl), 'Redis');
}

export async function startRedis(): Promise<void> {
  if (!(await redisReady(testUrls().redisUrl))) await run(...REDIS_START);
  await waitFor(() => redisReady(testUrls().redisUrl), 'Redis');
}

export async function stopRabbit(): Promise<void> {
  await run(...RABBIT_STOP);
  await waitGone(() => rabbitReady(testUrls().amqpUrl), 'RabbitMQ');
}

export async function startRabbit(): Promise<void> {
  await run(...RABBIT_START);
  await waitFor(() => rabbitReady(testUrls().amqpUrl), 'RabbitMQ');
}
