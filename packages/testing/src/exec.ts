/**
 * Runs a service-control command (docker stop/start/pause/exec on the run's containers; on
 * local services pg_ctlcluster, redis-cli, rabbitmqctl) without a shell, rejecting with the
 * command line, exit status and stderr when it fails.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Upper bound for one command (ms); rabbitmqctl alone takes about a second. */
const COMMAND_TIMEOUT_MS = 60_000;

export function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map((part) => (/[\s"']/.test(part) ? JSON.stringify(part) : part)).join(' ');
}

export async function run(command: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, { timeout: COMMAND_TIMEOUT_MS });
    return stdout;
  } catch (error) {
    const { stderr, code } = error as { stderr?: string; code?: unknown };
    const detail = stderr?.trim() || (error as Error).message;
    throw new Error(`\`${commandLine(command, args)}\` failed (${String(code)}): ${detail}`, { cause: error });
  }
}

/**
 * Signals a child process and waits until it has exited; at once when it exited already (a
 * crash before it was stopped), which waiting for its 'exit' event would never see.
 */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await exited;
}
