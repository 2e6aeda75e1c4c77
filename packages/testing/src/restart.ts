/**
 * Outages for fault tests (does the client fail fast, does it recover on its own?).
 * On the run's service containers (the default) a stop is `docker stop` of that container, a
 * start `docker start`, a restart `docker restart`, and pauseService/unpauseService freeze
 * it (connections stay open, nothing answers); the host ports stay the same, so URLs do not
 * change. With SKIPTRACE_TEST_SERVICES=local (no Docker) they stop and start the machine's
 * own services instead, which every process on the machine shares. Either way keep outages
 * short and always start the service again in `finally` / `afterAll`. Each start resolves
 * only once the service accepts connections and answers a command.
 */
import { readdirSync } from 'node:fs';
import { run } from './exec.ts';
import { postgresReady, rabbitReady, redisReady } from './probes.ts';
import { onContainers, serviceContainer, testUrls, waitUntil } from './services.ts';
import type { ServiceName } from './services.ts';

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

/** The container running service in this run; throws on local services (there is none). */
export function containerOf(service: ServiceName): string {
  const id = serviceContainer(service);
  if (!id) throw new Error(`no ${service} container in this run (not started by the integration setup)`);
  return id;
}

/** `docker ARGS...` (the engine the containers run on). */
export function docker(args: readonly string[]): Promise<string> {
  return run('docker', args);
}

const probes: Record<ServiceName, () => Promise<boolean>> = {
  postgres: () => postgresReady(testUrls().databaseUrl),
  redis: () => redisReady(testUrls().redisUrl),
  rabbitmq: () => rabbitReady(testUrls().amqpUrl),
};
const names: Record<ServiceName, string> = { postgres: 'PostgreSQL', redis: 'Redis', rabbitmq: 'RabbitMQ' };

/** The service's container is running (not stopped; a paused one counts as running). */
async function containerRunning(service: ServiceName): Promise<boolean> {
  return (await docker(['inspect', '-f', '{{.State.Running}}', containerOf(service)])).trim() === 'true';
}

async function containerPaused(service: ServiceName): Promise<boolean> {
  return (await docker(['inspect', '-f', '{{.State.Paused}}', containerOf(service)])).trim() === 'true';
}

/** On the machine's own services (the opt-out, or a script outside the test run); on containers a missing id is an error, never a fall back. */
const local = () => !onContainers();

/** Stops the service: its container (`docker stop`), or on local services the machine's. */
export async function stopService(service: ServiceName): Promise<void> {
  if (local()) {
    await run(...LOCAL_COMMANDS[service].stop());
  } else {
    // A short grace period: a test outage, not a clean shutdown, is the point.
    await docker(['stop', '-t', '5', containerOf(service)]);
  }
  await waitGone(probes[service], names[service]);
}

/** Starts the service if it is not running (unpausing a paused container) and waits until it answers. */
export async function startService(service: ServiceName): Promise<void> {
  if (local()) {
    if (!(await probes[service]())) await run(...LOCAL_COMMANDS[service].start());
  } else if (await containerPaused(service)) {
    await docker(['unpause', containerOf(service)]);
  } else if (!(await containerRunning(service))) {
    await docker(['start', containerOf(service)]);
  }
  await waitFor(probes[service], names[service]);
}

/** Restarts the service (`docker restart`, or the machine's restart command) and waits until it answers. */
export async function restartService(service: ServiceName): Promise<void> {
  if (local()) {
    const { restart, stop, start } = LOCAL_COMMANDS[service];
    if (restart) await run(...restart());
    else {
      await run(...stop());
      await run(...start());
    }
  } else {
    await docker(['restart', '-t', '5', containerOf(service)]);
  }
  await waitFor(probes[service], names[service]);
}

/**
 * Freezes the service's container (`docker pause`): its port still accepts connections,
 * open connections stay open, but nothing is answered — a hung server rather than a dead
 * one. Containers only.
 */
export async function pauseService(service: ServiceName): Promise<void> {
  await docker(['pause', containerOf(service)]);
}

/** Thaws a paused container and waits until the service answers again. */
export async function unpauseService(service: ServiceName): Promise<void> {
  if (await containerPaused(service)) await docker(['unpause', containerOf(service)]);
  await waitFor(probes[service], names[service]);
}

const LOCAL_COMMANDS: Record<
  ServiceName,
  { stop: () => [string, string[]]; start: () => [string, string[]]; restart?: () => [string, string[]] }
> = {
  postgres: {
    stop: () => postgresCommand('stop'),
    start: () => postgresCommand('start'),
    restart: () => postgresCommand('restart'),
  },
  redis: { stop: () => REDIS_STOP, start: () => REDIS_START },
  rabbitmq: { stop: () => RABBIT_STOP, start: () => RABBIT_START },
};

export const stopPostgres = (): Promise<void> => stopService('postgres');
export const startPostgres = (): Promise<void> => startService('postgres');
export const stopRabbit = (): Promise<void> => stopService('rabbitmq');
export const startRabbit = (): Promise<void> => startService('rabbitmq');
