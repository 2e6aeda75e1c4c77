/**
 * Makes sure PostgreSQL, Redis and RabbitMQ answer before integration tests start: each
 * is probed (connect + trivial command), started when it does not answer (`docker start`
 * of the run's container, or with SKIPTRACE_TEST_SERVICES=local the machine's usual start
 * command), and probed again until a deadline. Fails naming the service and the command.
 * Also runnable directly: `node packages/testing/scripts/ensure-services.ts`.
 */
import { commandLine, run } from '../src/exec.ts';
import { postgresReady, rabbitReady, redisReady } from '../src/probes.ts';
import { RABBIT_START, REDIS_START, containerOf, postgresCommand } from '../src/restart.ts';
import { onContainers, testUrls, waitUntil } from '../src/services.ts';
import type { ServiceName, TestUrls } from '../src/services.ts';

interface Service {
  name: string;
  url: string;
  probe: (url: string) => Promise<boolean>;
  start: () => [string, string[]];
}

export interface EnsureServicesOptions {
  urls?: TestUrls;
  /** How long each service may take to answer after being started (ms); default 60,000. */
  startTimeoutMs?: number;
  /** Progress messages (e.g. console.error); default silent. */
  log?: (message: string) => void;
}

async function ensureOne(service: Service, timeoutMs: number, log: (message: string) => void): Promise<void> {
  if (await service.probe(service.url)) return;
  const [command, args] = service.start();
  const line = commandLine(command, args);
  log(`ensure-services: ${service.name} not reachable at ${service.url}; running ${line}`);
  let startError = '';
  await run(command, args).catch((error: Error) => {
    startError = ` (${error.message})`;
  });
  try {
    await waitUntil(() => service.probe(service.url), { timeoutMs, intervalMs: 200, message: service.name });
  } catch {
    throw new Error(
      `${service.name} is not reachable at ${service.url} and did not come up after \`${line}\`${startError}`,
    );
  }
  log(`ensure-services: ${service.name} is up`);
}

/** Resolves when all three services answer; rejects naming the first that does not. */
export async function ensureServices(options: EnsureServicesOptions = {}): Promise<void> {
  const urls = options.urls ?? testUrls();
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const log = options.log ?? (() => undefined);
  const local = !onContainers();
  const start =
    (service: ServiceName, command: () => [string, string[]]): (() => [string, string[]]) =>
    () =>
      local ? command() : ['docker', ['start', containerOf(service)]];
  const services: Service[] = [
    {
      name: 'PostgreSQL',
      url: urls.databaseUrl,
      probe: postgresReady,
      start: start('postgres', () => postgresCommand('start')),
    },
    { name: 'Redis', url: urls.redisUrl, probe: redisReady, start: start('redis', () => REDIS_START) },
    { name: 'RabbitMQ', url: urls.amqpUrl, probe: rabbitReady, start: start('rabbitmq', () => RABBIT_START) },
  ];
  const results = await Promise.allSettled(services.map((service) => ensureOne(service, timeoutMs, log)));
  const failures = results.flatMap((result) =>
    result.status === 'rejected' ? [(result.reason as Error).message] : [],
  );
  if (failures.length > 0) throw new Error(failures.join('\n'));
}

if (import.meta.main) {
  ensureServices({ log: (message) => console.error(message) }).then(
    () => console.error('ensure-services: PostgreSQL, Redis and RabbitMQ are reachable'),
    (error: Error) => {
      console.error(error.message);
      process.exitCode = 1;
    },
  );
}
