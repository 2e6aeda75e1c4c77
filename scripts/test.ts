// The whole test command (`./run test` / `pnpm test`): makes sure the local services,
// Chromium and Prometheus (promtool) are there, checks the alerting rules, then lint,
// typecheck and unit tests as Turborepo package tasks (cached; arguments such as
// `--affected` go to turbo), then the integration tests (never cached).
// Integration tests run one file at a time: some restart PostgreSQL, Redis or RabbitMQ.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureServices } from '@skiptrace/testing';
import { listPackages } from './boundaries.ts';

function step(title: string, cmd: string, args: string[]): void {
  console.log(`\n== ${title}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`\n${title} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  console.log(`== ${title}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// --forceExit: a test file that leaves a handle open must not hang CI after every test has passed.
const jest = ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--ci', '--forceExit'];
const reports = mkdtempSync(join(tmpdir(), 'skiptrace-test-'));
const report = (name: string) => ['--json', `--outputFile=${join(reports, `${name}.json`)}`];
console.log('== services');
await ensureServices();
step('chromium', 'bash', ['scripts/ensure-chromium.sh']);
step('prometheus', 'bash', ['scripts/ensure-prometheus.sh']);
step('alert rules', 'promtool', ['check', 'rules', 'deploy/monitoring/alerts.yaml']);
// Each package's test task writes .jest/unit.json (a cached output, restored on a cache hit);
// a package a filtered run leaves out has none, so the count below is this run's.
const unitReports = listPackages('.').map((p) => join(p.dir, '.jest', 'unit.json'));
for (const file of unitReports) rmSync(file, { force: true });
const tasks = ['lint', 'lint:root', 'typecheck', 'typecheck:root', 'test'];
step('lint, typecheck, unit tests', 'pnpm', [
  'exec',
  'turbo',
  'run',
  ...tasks,
  '--output-logs=errors-only',
  ...process.argv.slice(2),
]);
step('integration tests', process.execPath, [
  ...jest,
  '--selectProjects',
  'integration',
  '--runInBand',
  ...report('integration'),
]);

// One closing line in the plain form CI readers understand.
let passed = 0;
let failed = 0;
for (const file of [...unitReports.filter((f) => existsSync(f)), join(reports, 'integration.json')]) {
  const r = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
  };
  passed += r.numPassedTests;
  failed += r.numFailedTests;
}
console.log(`\n${passed} passed, ${failed} failed`);
if (passed === 0 || failed > 0) process.exit(1);
