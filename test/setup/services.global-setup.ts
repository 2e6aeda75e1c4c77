/**
 * Jest globalSetup of the integration project: PostgreSQL, Redis and RabbitMQ for this
 * run, once, shared by every test file (each still makes its own database, vhost and key
 * prefix). By default containers started through Testcontainers (@skiptrace/testing's
 * containers.ts): a Docker engine (started when none answers), the images (official when
 * present, else built locally once), the three containers with ports on 127.0.0.1; their
 * URLs and ids go into the SKIPTRACE_TEST_* variables every test reads through testUrls().
 * When scripts/test.ts (./run test) has already started them, they are only checked.
 * SKIPTRACE_TEST_SERVICES=local is the opt-out for a machine without Docker: the machine's
 * own services, started if they do not answer.
 */
import {
  SERVICE_ENV,
  ensureDockerEngine,
  ensureServices,
  resolveServiceImages,
  serviceMode,
  startServiceContainers,
} from '@skiptrace/testing';
import type { StartedServices } from '@skiptrace/testing';

/** Where globalTeardown finds what this setup started (both run in Jest's main process). */
export const STARTED = Symbol.for('skiptrace.testServices');

const log = (message: string) => console.error(message);

export default async function setup(): Promise<void> {
  if (serviceMode() === 'local') {
    log("\nservices: SKIPTRACE_TEST_SERVICES=local — the machine's own PostgreSQL, Redis and RabbitMQ");
    await ensureServices({ log });
    return;
  }
  if (process.env[SERVICE_ENV.postgresContainer]) {
    // Started by the caller (scripts/test.ts); a stopped container left by a crashed run is started again.
    await ensureServices({ log });
    return;
  }
  const began = Date.now();
  log('\nservices: starting PostgreSQL, Redis and RabbitMQ containers for this run (Testcontainers)');
  await ensureDockerEngine();
  const { images } = await resolveServiceImages(process.env, log);
  const imagesDone = Date.now();
  const started = await startServiceContainers({ images, log });
  Object.assign(process.env, started.env);
  (globalThis as { [STARTED]?: StartedServices })[STARTED] = started;
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  log(
    `services: ${Object.values(images).join(', ')} — images ${seconds(imagesDone - began)} s, ` +
      `containers up in ${seconds(Date.now() - imagesDone)} s`,
  );
}
