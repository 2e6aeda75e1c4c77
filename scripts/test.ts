// The whole test command (`./run test` / `pnpm test`): makes sure the local services,
// Chromium and Prometheus (promtool) are there, checks the alerting rules, then lint,
// typecheck, unit tests, integration tests.
// Integration tests run one file at a time: some restart PostgreSQL, Redis or RabbitMQ.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureServices } from '@skiptrace/testing';

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
step('lint', 'pnpm', ['lint']);
step('typecheck', 'pnpm', ['typecheck']);
step('unit tests', process.execPath, [...jest, '--selectProjects', 'unit', ...report('unit')]);
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
for (const name of ['unit', 'integration']) {
  const r = JSON.parse(readFileSync(join(reports, `${name}.json`), 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
  };
  passed += r.numPassedTests;
  failed += r.numFailedTests;
}
console.log(`\n${passed} passed, ${failed} failed`);
if (passed === 0 || failed > 0) process.exit(1);
