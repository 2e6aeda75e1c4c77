/**
 * Finds the command named by argv, answers --help, parses the options strictly and turns
 * every failure into one line on stderr: exit 2 for usage errors, 1 for the rest.
 * HTTP errors print their status and the API's message. SKIPTRACE_DEBUG=1 adds the stack.
 */
import { AccountError } from '@skiptrace/accounts';
import { ApiRequestError } from '@skiptrace/client';
import { ConfigError } from '@skiptrace/runtime';
import { helpText, parseCommandArgs, usageLine, UsageError, type Command } from './command.ts';
import { AdminApiError, StoreBusyError } from './store.ts';

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

function overview(commands: Command[], prefix = ''): string {
  const shown = commands.filter((c) => c.name.startsWith(prefix));
  const width = Math.max(...shown.map((c) => c.name.length));
  const lines = shown.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `usage: skiptrace ${prefix ? `${prefix.trim()} ` : ''}<command> [options]   (<command> --help for its options)\n\ncommands:\n${lines.join('\n')}\n`;
}

/** The message of an error, with its cause for network failures (fetch says only "fetch failed"). */
function describe(err: unknown): string {
  if (err instanceof ApiRequestError) return `HTTP ${err.status}: ${err.message}`;
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return cause && !e.message.includes(cause) ? `${e.message} (${cause})` : (e.message ?? String(err));
}

export async function runCli(argv: string[], commands: Command[], io: CliIo): Promise<number> {
  const [first, second] = argv;
  if (first === undefined || isHelp(first)) {
    io.stdout.write(overview(commands));
    return 0;
  }
  const command = commands.find((c) => c.name === `${first} ${second}`) ?? commands.find((c) => c.name === first);
  if (!command) {
    const group = commands.some((c) => c.name.startsWith(`${first} `));
    if (group && (second === undefined || isHelp(second))) {
      (second === undefined ? io.stderr : io.stdout).write(overview(commands, `${first} `));
      return second === undefined ? 2 : 0;
    }
    const what = group ? `unknown ${first} command: ${second}` : `unknown command: ${first}`;
    io.stderr.write(`skiptrace: ${what} (skiptrace --help lists them)\n`);
    return 2;
  }
  const args = argv.slice(command.name.split(' ').length);
  const end = args.indexOf('--');
  if ((end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h')) {
    io.stdout.write(helpText(command));
    return 0;
  }
  try {
    return await command.run({ ...parseCommandArgs(command, args), env: io.env });
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError) {
      io.stderr.write(`skiptrace ${command.name}: ${err.message}\nusage: ${usageLine(command)}   (--help for more)\n`);
      return 2;
    }
    if (err instanceof AccountError || err instanceof StoreBusyError || err instanceof AdminApiError) {
      io.stderr.write(`skiptrace ${command.name}: ${err.message}\n`);
      return 1;
    }
    io.stderr.write(`skiptrace ${command.name}: ${describe(err)}\n`);
    if (io.env.SKIPTRACE_DEBUG) io.stderr.write(`${(err as Error).stack ?? ''}\n`);
    return 1;
  }
}
