/**
 * Runs a service-control command (docker stop/start/pause/exec on the run's containers; on
 * local services pg_ctlcluster, redis-cli, rabbitmqctl) without a shell, rejecting with the
 * command line, exit status and stderr when it fails.
 */
import { execFile } from 'node:child_process';
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
