// The whole test command (`./run test` / `pnpm test`): a Docker engine and the service
// images (built once per machine when the official ones are not there), Chromium and
// Prometheus (promtool), the alerting rules, then lint, typecheck and unit tests as
// Turborepo package tasks (cached; arguments such as `--affected` go to turbo; no service
// needed), then PostgreSQL, Redis and RabbitMQ containers started through Testcontainers
// and the integration tests against them (never cached), then the containers removed.
// Prints the time each part took. SKIPTRACE_TEST_SERVICES=local runs the integration tests
// against the machine's own services instead (a machine without Docker).
// Integration files run two at a time (each has its own database, vhost and key prefix, and
// most of their time is spent waiting); a file whose header says `// @run-alone: why` (it
// stops, pauses or restarts a service, blocks the broker, or times answers) runs after them,
// one at a time.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ensureDockerEngine,
  ensureServices,
  resolveServiceImages,
  serviceMode,
  startServiceContainers,
} from '@skiptrace/testing';
import type { StartedServices } from '@skiptrace/testing';
import { listPackages } from './boundaries.ts';

class StepFailed extends Error {}

const times: [string, number][] = [];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs an async part, timed under label (parts with the same label add up). */
async function timed<T>(label: string, title: string, fn: () => Promise<T>): Promise<T> {
  console.log(`\n== ${title}`);
  const started = Date.now();
  const record = () => {
    const ms = Date.now() - started;
    const entry = times.find(([name]) => name === label);
    if (entry) entry[1] += ms;
    else times.push([label, ms]);
    return seconds(ms);
  };
  try {
    const result = await fn();
    console.log(`== ${title}: ok in ${record()}`);
    return result;
  } catch (error) {
    console.error(`\n${title} failed (${(error as Error).message}) after ${record()}`);
    throw error;
  }
}

let child: ReturnType<typeof spawn> | undefined;
function command(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    child = spawn(cmd, args, { stdio: 'inherit', env });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      child = undefined;
      if (code === 0) resolve();
      else reject(new StepFailed(`exit ${code ?? signal}`));
    });
  });
}

const step = (label: string, title: string, cmd: string, args: string[], env?: NodeJS.ProcessEnv) =>
  timed(label, title, () => command(cmd, args, env));

// --forceExit: a test file that leaves a handle open must not hang CI after every test has passed.
const jest = ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--ci', '--forceExit'];
const reports = mkdtempSync(join(tmpdir(), 'skiptrace-test-'));
const report = (name: string) => ['--json', `--outputFile=${join(reports, `${name}.json`)}`];
// Each package's test task writes .jest/unit.json (a cached output, restored on a cache hit);
// a package a filtered run leaves out has none, so the count below is this run's.
const unitReports = listPackages('.').map((p) => join(p.dir, '.jest', 'unit.json'));
const INTEGRATION_RUNS = { shared: 'integration-shared', alone: 'integration-alone' } as const;
const integrationReports = Object.values(INTEGRATION_RUNS).map((name) => join(reports, `${name}.json`));

/** The integration project's test files, as Jest itself finds them (absolute paths). */
function integrationFiles(): string[] {
  const listed = spawnSync(process.execPath, [...jest, '--selectProjects', 'integration', '--listTests', '--json'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (listed.status !== 0) throw new StepFailed(`jest --listTests: exit ${listed.status ?? listed.signal}`);
  return (JSON.parse(listed.stdout) as string[]).sort();
}
const RUN_ALONE = /^\/\/ @run-alone: /m;

const mode = serviceMode();
let services: StartedServices | undefined;
const log = (message: string) => console.log(message);

async function removeContainers(): Promise<void> {
  const started = services;
  services = undefined;
  if (started) await timed('containers', 'removing the service containers', () => started.stop());
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    child?.kill(signal);
    void removeContainers().finally(() => process.exit(128 + (signal === 'SIGINT' ? 2 : 15)));
  });

async function main(): Promise<void> {
  let images: Awaited<ReturnType<typeof resolveServiceImages>>['images'] | undefined;
  if (mode === 'containers') {
    images = await timed('images', 'Docker engine and service images', async () => {
      await ensureDockerEngine();
      const resolved = await resolveServiceImages(process.env, log);
      for (const [service, image] of Object.entries(resolved.images))
        console.log(`   ${service}: ${image} (${resolved.sources[service as keyof typeof resolved.sources]})`);
      return resolved.images;
    });
  } else {
    await timed('services', "local services (SKIPTRACE_TEST_SERVICES=local: the machine's own)", () =>
      ensureServices({ log }),
    );
  }
  await step('tools', 'chromium', 'bash', ['scripts/ensure-chromium.sh']);
  await step('tools', 'prometheus', 'bash', ['scripts/ensure-prometheus.sh']);
  await step('tools', 'alert rules', 'promtool', ['check', 'rules', 'deploy/monitoring/alerts.yaml']);
  for (const file of unitReports) rmSync(file, { force: true });
  const tasks = ['lint', 'lint:root', 'typecheck', 'typecheck:root', 'test'];
  await step('lint/typecheck/unit', 'lint, typecheck, unit tests', 'pnpm', [
    'exec',
    'turbo',
    'run',
    ...tasks,
    '--output-logs=errors-only',
    ...process.argv.slice(2),
  ]);
  let env = process.env;
  if (images) {
    const chosen = images;
    services = await timed('containers', 'service containers (Testcontainers)', async () => {
      const started = await startServiceContainers({ images: chosen, log });
      for (const [name, value] of Object.entries(started.env))
        console.log(
          `   ${name}=${name.endsWith('_CONTAINER') ? value.slice(0, 12) : value.replace(/:[^:@/]+@/, ':***@')}`,
        );
      return started;
    });
    env = { ...process.env, ...services.env };
  }
  const files = integrationFiles();
  const alone = files.filter((file) => RUN_ALONE.test(readFileSync(file, 'utf8')));
  const shared = files.filter((file) => !alone.includes(file));
  const integration = (title: string, name: string, workers: string[], paths: string[]) =>
    step(
      'integration',
      `${title} (${paths.length} files)`,
      process.execPath,
      [...jest, '--selectProjects', 'integration', ...workers, ...report(name), '--runTestsByPath', ...paths],
      env,
    );
  try {
    await integration('integration tests, two files at a time', INTEGRATION_RUNS.shared, ['--maxWorkers=2'], shared);
    await integration('integration tests that run alone', INTEGRATION_RUNS.alone, ['--runInBand'], alone);
  } finally {
    await removeContainers();
  }
}

const began = Date.now();
let failure: unknown;
try {
  await main();
} catch (error) {
  failure = error;
  await removeContainers().catch(() => undefined);
}
const split = times.map(([label, ms]) => `${label} ${seconds(ms)}`).join(', ');
console.log(`\n== time split: ${split}; total ${seconds(Date.now() - began)}`);
if (failure) {
  if (!(failure instanceof StepFailed)) console.error(failure);
  process.exit(1);
}

// One closing line in the plain form CI readers understand.
let passed = 0;
let failed = 0;
for (const file of [...unitReports.filter((f) => existsSync(f)), ...integrationReports]) {
  const r = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
  };
  passed += r.numPassedTests;
  failed += r.numFailedTests;
}
console.log(`\n${passed} passed, ${failed} failed`);
if (passed === 0 || failed > 0) process.exit(1);
