/**
 * The integration tests' PostgreSQL, Redis and RabbitMQ as containers started through
 * Testcontainers, once per test run and shared by every test file (each file still gets
 * its own database, vhost and key prefix: ./postgres.ts, ./rabbitmq.ts, ./redis.ts).
 *
 *   ensureDockerEngine()      scripts/docker-engine.sh: the machine's engine, or dockerd started
 *   resolveServiceImages()    POSTGRES_IMAGE / REDIS_IMAGE / RABBITMQ_IMAGE, else the official
 *                             image when this machine has it, else the local build
 *                             (scripts/local-images.sh, built once and reused)
 *   startServiceContainers()  the three containers, ports published on 127.0.0.1 only; returns
 *                             the SKIPTRACE_TEST_* variables (./services.ts) and stop()
 *
 * Host ports are chosen before the start and fixed, so a stopped and started (or paused)
 * container keeps its URLs: the fault tests (./restart.ts) act on the container by id.
 * Ryuk (Testcontainers' reaper) is off — its image cannot be pulled here — so containers
 * carry the owner's pid in a label, and a run removes those whose owner is gone.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { WaitStrategy } from 'testcontainers';
import { freePort } from './ports.ts';
import { postgresReady, rabbitReady, redisReady } from './probes.ts';
import { managementReady } from './rabbitmq.ts';
import { SERVICE_ENV, waitUntil } from './services.ts';
import type { ServiceName } from './services.ts';

/** Testcontainers' reaper image cannot be pulled; and the engine is on this machine. */
function configureTestcontainers(): void {
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  // Inside a container Testcontainers would otherwise reach published ports through the
  // bridge gateway; they are published on loopback only.
  process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
}

const root = fileURLToPath(new URL('../../../', import.meta.url));

export const OFFICIAL_IMAGES: Record<ServiceName, string> = {
  postgres: 'postgres:16',
  redis: 'redis:7',
  rabbitmq: 'rabbitmq:3.13-management',
};
/** What scripts/local-images.sh builds from Debian's packages where the official ones cannot be pulled. */
export const LOCAL_IMAGES: Record<ServiceName, string> = {
  postgres: 'skiptrace-local/postgres:15',
  redis: 'skiptrace-local/redis:7',
  rabbitmq: 'skiptrace-local/rabbitmq:3',
};
export const IMAGE_VARIABLES: Record<ServiceName, string> = {
  postgres: 'POSTGRES_IMAGE',
  redis: 'REDIS_IMAGE',
  rabbitmq: 'RABBITMQ_IMAGE',
};
const SERVICES: readonly ServiceName[] = ['postgres', 'redis', 'rabbitmq'];

/** Label on every service container: the pid of the process that owns it. */
const OWNER_LABEL = 'skiptrace.test-services.owner';

type Log = (message: string) => void;

/** Runs a command, its stderr passed through (progress of a long build), rejecting on failure. */
function runVisible(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}`)),
    );
  });
}

function runQuiet(command: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.once('error', () => resolve({ code: -1, stdout }));
    child.once('exit', (code) => resolve({ code: code ?? -1, stdout }));
  });
}

/** A Docker engine that answers (scripts/docker-engine.sh: installs and starts one as root on Debian). */
export async function ensureDockerEngine(): Promise<void> {
  await runVisible('bash', [`${root}scripts/docker-engine.sh`]);
}

async function imagePresent(image: string): Promise<boolean> {
  return (await runQuiet('docker', ['image', 'inspect', '--format', '{{.Id}}', image])).code === 0;
}

export interface ResolvedImages {
  images: Record<ServiceName, string>;
  /** Where each came from: the variable, the official image already here, pulled, or the local build. */
  sources: Record<ServiceName, 'variable' | 'official' | 'pulled' | 'local'>;
}

/**
 * Which image runs each service. A variable (POSTGRES_IMAGE, ...) wins. Otherwise the
 * official image when the engine already has it; with SKIPTRACE_PULL=1 it is pulled first (a
 * machine that reaches a registry). Nothing is pulled by default: where no registry is
 * reachable, trying would only send packets off the machine. Otherwise the local build from
 * Debian's packages (scripts/local-images.sh, a no-op when its images are current). The same
 * choice as scripts/compose-env.sh makes for docker-compose.yml.
 */
export async function resolveServiceImages(
  env: NodeJS.ProcessEnv = process.env,
  log: Log = () => {},
): Promise<ResolvedImages> {
  const images = {} as Record<ServiceName, string>;
  const sources = {} as ResolvedImages['sources'];
  const needLocal: ServiceName[] = [];
  for (const service of SERVICES) {
    const chosen = env[IMAGE_VARIABLES[service]];
    if (chosen) {
      images[service] = chosen;
      sources[service] = 'variable';
      continue;
    }
    const official = OFFICIAL_IMAGES[service];
    if (await imagePresent(official)) {
      images[service] = official;
      sources[service] = 'official';
      continue;
    }
    if (env.SKIPTRACE_PULL === '1' && (await runQuiet('docker', ['pull', '-q', official])).code === 0) {
      images[service] = official;
      sources[service] = 'pulled';
      continue;
    }
    sources[service] = 'local';
    needLocal.push(service);
  }
  if (needLocal.length > 0) {
    log(`service images: building or reusing the local ${needLocal.join(', ')} image(s) (scripts/local-images.sh)`);
    // Its last line: `export NODE_IMAGE=... POSTGRES_IMAGE=... REDIS_IMAGE=... RABBITMQ_IMAGE=...`.
    const printed = await runVisible('bash', [`${root}scripts/local-images.sh`, '--print']);
    const built = Object.fromEntries(
      (printed.trim().split('\n').at(-1) ?? '')
        .replace(/^export /, '')
        .split(/\s+/)
        .map((pair) => pair.split('=') as [string, string]),
    );
    for (const service of needLocal) images[service] = built[IMAGE_VARIABLES[service]] || LOCAL_IMAGES[service];
  }
  return { images, sources };
}

/** Testcontainers' GenericContainer with its ports published on 127.0.0.1 only, at fixed host ports. */
async function loopbackContainer(image: string) {
  const { GenericContainer } = await import('testcontainers');
  return class LoopbackContainer extends GenericContainer {
    constructor() {
      super(image);
    }
    /** Publishes container port on 127.0.0.1:host (kept across stop and start). */
    publish(ports: Record<number, number>): this {
      this.withExposedPorts(
        ...Object.entries(ports).map(([container, host]) => ({ container: Number(container), host })),
      );
      for (const [container, host] of Object.entries(ports))
        this.hostConfig.PortBindings = {
          ...this.hostConfig.PortBindings,
          [`${container}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: String(host) }],
        };
      return this;
    }
  };
}

/** Testcontainers waits with our protocol probes (a published port answers before the service does). */
function probeWait(probe: () => Promise<boolean>, what: string): WaitStrategy {
  let timeoutMs = 120_000;
  let set = false;
  return {
    async waitUntilReady() {
      await waitUntil(probe, { timeoutMs, intervalMs: 200, message: `${what} accepting connections` });
    },
    withStartupTimeout(ms: number) {
      timeoutMs = ms;
      set = true;
      return this;
    },
    isStartupTimeoutSet: () => set,
    getStartupTimeout: () => timeoutMs,
  };
}

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes service containers left by runs whose process is gone (no reaper here). */
export async function removeOrphanedContainers(log: Log = () => {}): Promise<void> {
  const { stdout } = await runQuiet('docker', [
    'ps',
    '-a',
    '--filter',
    `label=${OWNER_LABEL}`,
    '--format',
    `{{.ID}} {{.Label "${OWNER_LABEL}"}}`,
  ]);
  const orphans = stdout
    .split('\n')
    .map((line) => line.trim().split(' '))
    .filter(([id, pid]) => id && !isAlive(Number(pid)))
    .map(([id]) => id!);
  if (orphans.length === 0) return;
  log(`service containers: removing ${orphans.length} left by an earlier run`);
  await runQuiet('docker', ['rm', '-f', '-v', ...orphans]);
}

export interface StartedServices {
  /** The SKIPTRACE_TEST_* variables (./services.ts) to put in the tests' environment. */
  env: Record<string, string>;
  images: Record<ServiceName, string>;
  /** Stops and removes the three containers and their volumes. Idempotent. */
  stop(): Promise<void>;
}

export interface StartOptions {
  images: Record<ServiceName, string>;
  log?: Log;
}

/** Starts PostgreSQL, Redis and RabbitMQ in parallel; resolves once each answers its protocol. */
export async function startServiceContainers({ images, log = () => {} }: StartOptions): Promise<StartedServices> {
  configureTestcontainers();
  await removeOrphanedContainers(log);
  const run = `${process.pid}-${randomBytes(3).toString('hex')}`;
  const labels = { [OWNER_LABEL]: String(process.pid) };
  const [pgPort, redisPort, amqpPort, apiPort] = await distinctFreePorts(4);
  const password = randomBytes(8).toString('hex');
  const databaseUrl = `postgres://postgres:${password}@127.0.0.1:${pgPort}/test`;
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const amqpUrl = `amqp://guest:guest@127.0.0.1:${amqpPort}`;
  const rabbitApiUrl = `http://guest:guest@127.0.0.1:${apiPort}`;

  const Postgres = await loopbackContainer(images.postgres);
  const Redis = await loopbackContainer(images.redis);
  const Rabbit = await loopbackContainer(images.rabbitmq);
  const postgres = new Postgres()
    .withName(`skiptrace-test-postgres-${run}`)
    .withLabels(labels)
    .withEnvironment({ POSTGRES_PASSWORD: password, POSTGRES_DB: 'test' })
    // A test server: durability off (a crash loses the run anyway), room for every suite's pools,
    // and autovacuum off as on the machines the product is measured on (bulk loads refresh
    // their statistics themselves): a background ANALYZE must not race a test's own.
    .withCommand([
      'postgres',
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      ...['-c', 'max_connections=300', '-c', 'autovacuum=off'],
    ])
    .withSharedMemorySize(512 * 1024 * 1024)
    .publish({ 5432: pgPort! })
    .withWaitStrategy(probeWait(() => postgresReady(databaseUrl), 'PostgreSQL'));
  const redis = new Redis()
    .withName(`skiptrace-test-redis-${run}`)
    .withLabels(labels)
    .withCommand(['redis-server', '--save', '', '--appendonly', 'no'])
    .publish({ 6379: redisPort! })
    .withWaitStrategy(probeWait(() => redisReady(redisUrl), 'Redis'));
  const rabbit = new Rabbit()
    .withName(`skiptrace-test-rabbitmq-${run}`)
    .withLabels(labels)
    .withEnvironment({ RABBITMQ_DEFAULT_USER: 'guest', RABBITMQ_DEFAULT_PASS: 'guest' })
    // A stable node name across container restarts (it is derived from the hostname).
    .withHostname('rabbitmq')
    .publish({ 5672: amqpPort!, 15672: apiPort! })
    .withWaitStrategy(
      probeWait(
        async () => (await rabbitReady(amqpUrl)) && (await managementReady(rabbitApiUrl)),
        'RabbitMQ (AMQP and management API)',
      ),
    );

  const settled = await Promise.allSettled([postgres.start(), redis.start(), rabbit.start()]);
  const started = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  let stopped: Promise<void> | undefined;
  // Killed, not shut down: nothing of theirs is kept. A container a test left paused is thawed first.
  const stop = () =>
    (stopped ??= Promise.all(
      started.map(async (c) => {
        await runQuiet('docker', ['unpause', c.getId()]);
        await c.stop({ remove: true, removeVolumes: true, timeout: 0 });
      }),
    ).then(() => undefined));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) {
    await stop().catch(() => undefined);
    throw (failed as PromiseRejectedResult).reason;
  }
  const [pg, rd, mq] = started;
  return {
    images,
    env: {
      [SERVICE_ENV.mode]: 'containers',
      [SERVICE_ENV.databaseUrl]: databaseUrl,
      [SERVICE_ENV.redisUrl]: redisUrl,
      [SERVICE_ENV.amqpUrl]: amqpUrl,
      [SERVICE_ENV.rabbitApiUrl]: rabbitApiUrl,
      [SERVICE_ENV.postgresContainer]: pg!.getId(),
      [SERVICE_ENV.redisContainer]: rd!.getId(),
      [SERVICE_ENV.rabbitmqContainer]: mq!.getId(),
    },
    stop,
  };
}
