/**
 * `node --import …/loopback-guard.register.ts`: installs the loopback guard in a child
 * process started by a test, reporting violations to SKIPTRACE_LOOPBACK_GUARD_LOG.
 */
import { appendViolationTo, installLoopbackGuard } from './loopback-guard.ts';

const log = process.env.SKIPTRACE_LOOPBACK_GUARD_LOG;
installLoopbackGuard(log ? appendViolationTo(log) : undefined);
