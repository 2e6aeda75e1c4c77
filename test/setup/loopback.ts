/**
 * Jest setup (every project): no test reaches past loopback. Installs the loopback guard
 * in this worker and, through NODE_OPTIONS, in every child process a test starts; a test
 * file during which any process tried to connect or resolve elsewhere fails in afterAll.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from '@jest/globals';
import { installLoopbackGuard, loopbackViolations } from '@skiptrace/testing/loopback-guard';

installLoopbackGuard();
if (!process.env.SKIPTRACE_LOOPBACK_GUARD_LOG) {
  process.env.SKIPTRACE_LOOPBACK_GUARD_LOG = join(mkdtempSync(join(tmpdir(), 'loopback-guard-')), 'violations.log');
  const register = fileURLToPath(import.meta.resolve('@skiptrace/testing/loopback-guard.register'));
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import ${register}`.trim();
}
const log = process.env.SKIPTRACE_LOOPBACK_GUARD_LOG;
const readLog = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
const before = { here: loopbackViolations().length, children: readLog().length };

afterAll(() => {
  const found = [...loopbackViolations().slice(before.here), ...readLog().slice(before.children)];
  if (found.length > 0 && !process.env.SKIPTRACE_LOOPBACK_GUARD_EXPECTED)
    throw new Error(`tests must talk to loopback only; this file tried:\n  ${found.join('\n  ')}`);
});
