/**
 * How the system runs when shipped: `pnpm start` (package.json's start script) gives node
 * the flags that the Dockerfile and k8s/ give every service (today the 16 MiB young
 * generation, `--max-semi-space-size=16`). The benches start the system, in one process or
 * as services, with these flags, so what they measure is what users run.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ShippedStart {
  /** The start script as written, for the bench's log. */
  command: string;
  /** Node's flags, before the script. */
  nodeFlags: string[];
  /** The one-process system's entry point. */
  script: string;
}

export async function shippedStart(): Promise<ShippedStart> {
  const file = join(import.meta.dirname, '../../package.json');
  const command = (JSON.parse(await readFile(file, 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [node, ...args] = command.split(' ');
  const script = args.pop();
  if (node !== 'node' || script === undefined || args.some((arg) => !arg.startsWith('-')))
    throw new Error(`package.json start is not "node [flags] script": ${command}`);
  return { command, nodeFlags: args, script };
}
