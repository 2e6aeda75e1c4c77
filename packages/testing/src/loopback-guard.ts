/**
 * Keeps a test run on this machine: every TCP connection and DNS query a process makes
 * is checked, and one aimed anywhere but loopback (127.0.0.0/8, ::1, `localhost`, a Unix
 * socket) is refused before a packet is sent and recorded as a violation. The Jest setup
 * (test/setup/loopback.ts) installs it in every test process and in the child processes
 * the tests start (NODE_OPTIONS --import of loopback-guard.register.ts), and fails the
 * test file that caused a violation; the fuzz command installs it too.
 *
 * Not for: production code. It patches Node's `net.Socket.prototype.connect` and the
 * `dns` module for the whole process.
 */
import { appendFileSync } from 'node:fs';
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

/** Where violations are kept: on the `net` module, which every test file of a Jest worker shares. */
const STATE = Symbol.for('skiptrace.loopbackGuard');

interface GuardState {
  violations: string[];
}

type Guarded = typeof net & { [STATE]?: GuardState };

/** True for a loopback IP literal (with or without brackets or a zone), `localhost` or a name under `.localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const address = bare.split('%')[0] ?? '';
  const family = net.isIP(address);
  if (family === 4) return address.startsWith('127.');
  if (family === 6) return address === '::1' || /^(0+:){7}0*1$/.test(address) || /^::ffff:127\./i.test(address);
  return /^(localhost|([a-z0-9-]+\.)+localhost)\.?$/i.test(bare);
}

export class NonLoopbackError extends Error {
  override name = 'NonLoopbackError';
  readonly code = 'ENONLOOPBACK';
}

/** The violations recorded in this process since the guard was installed. */
export function loopbackViolations(): readonly string[] {
  return (net as Guarded)[STATE]?.violations ?? [];
}

/**
 * Runs fn (a test that trips the guard on purpose) and returns the violations it caused,
 * removing them from the record so the test file does not fail for them.
 */
export async function expectViolations(fn: () => unknown): Promise<string[]> {
  const state = (net as Guarded)[STATE];
  if (!state) throw new Error('the loopback guard is not installed');
  const start = state.violations.length;
  try {
    await fn();
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENONLOOPBACK') throw error;
  }
  return state.violations.splice(start);
}

interface ConnectOptions {
  host?: string;
  path?: string;
  lookup?: (hostname: string, options: unknown, callback: (...a: unknown[]) => void) => void;
}

/** The options object of a `socket.connect(...)` call, if it was given one (also in Node's normalised form). */
function connectOptions(args: unknown[]): ConnectOptions | undefined {
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  return first && typeof first === 'object' ? (first as ConnectOptions) : undefined;
}

/** Host (or Unix path) a `socket.connect(...)` call aims at; an undefined host is Node's default, localhost. */
function connectTarget(args: unknown[]): { host?: string; path?: string } {
  const options = connectOptions(args);
  if (options) return { host: options.host, path: options.path };
  if (typeof args[0] === 'string' && !/^\d+$/.test(args[0])) return { path: args[0] };
  return { host: typeof args[1] === 'string' ? args[1] : undefined };
}

/**
 * Installs the guard in this process (once; later calls only add the listener).
 * onViolation runs for each refused connection or lookup, e.g. to write it to a file
 * a parent process reads.
 */
export function installLoopbackGuard(onViolation?: (what: string) => void): void {
  const guarded = net as Guarded;
  if (guarded[STATE]) return;
  const state: GuardState = { violations: [] };
  guarded[STATE] = state;
  const refuse = (what: string): NonLoopbackError => {
    const message = `loopback guard: ${what} would leave this machine (tests talk to loopback only)`;
    state.violations.push(what);
    onViolation?.(what);
    return new NonLoopbackError(message);
  };

  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const { host, path } = connectTarget(args);
    if (!path && host !== undefined && !isLoopbackHost(host)) {
      const options = connectOptions(args);
      const own = options?.lookup;
      // A name with the caller's own resolver (the webhook sender's SSRF guard): judge the
      // addresses it hands the socket instead of the name.
      if (!own) throw refuse(`a connection to ${host}`);
      options.lookup = (hostname, lookupOptions, callback) =>
        own(hostname, lookupOptions, (error: unknown, address: unknown, family: unknown) => {
          const list = Array.isArray(address) ? (address as { address: string }[]).map((a) => a.address) : [address];
          const outside = list.find((a) => typeof a === 'string' && !isLoopbackHost(a));
          if (!error && outside) callback(refuse(`a connection to ${hostname} (${String(outside)})`), '', 0);
          else callback(error, address, family);
        });
    }
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof connect;

  const lookup = dns.lookup;
  dns.lookup = function guardedLookup(hostname: string, ...rest: unknown[]) {
    if (!isLoopbackHost(hostname)) {
      const error = refuse(`a DNS lookup of ${hostname}`);
      const callback = rest.at(-1);
      if (typeof callback === 'function') {
        process.nextTick(() => (callback as (e: Error) => void)(error));
        return {};
      }
      throw error;
    }
    return (lookup as (...a: unknown[]) => unknown).call(dns, hostname, ...rest);
  } as typeof dns.lookup;
  const promisesLookup = dns.promises.lookup;
  dns.promises.lookup = (async (hostname: string, ...rest: unknown[]) => {
    if (!isLoopbackHost(hostname)) throw refuse(`a DNS lookup of ${hostname}`);
    return (promisesLookup as (...a: unknown[]) => Promise<unknown>).call(dns.promises, hostname, ...rest);
  }) as typeof dns.promises.lookup;
  // ESM `import { lookup } from 'node:dns'` bindings follow the patched properties.
  syncBuiltinESMExports();
}

/** An onViolation that appends each violation as a line to file (a child process's report to its parent). */
export const appendViolationTo = (file: string) => (what: string) => appendFileSync(file, `${process.pid} ${what}\n`);
