import { parseArgs } from 'node:util';

/**
 * One CLI command: `skiptrace <name…> [args] [options]`. Names may have two words
 * (`batch submit`). Options are declared, so `--help` is generated per command and an
 * unknown or misspelt option is an error instead of being ignored.
 */
export interface OptionSpec {
  type: 'string' | 'boolean';
  description: string;
  short?: string;
  /** Shown in help: `--out FILE`. */
  value?: string;
}
export type Options = Record<string, OptionSpec>;
export type Values = Record<string, string | boolean | undefined>;

export interface Command {
  name: string;
  summary: string;
  /** Positional arguments for the usage line, e.g. `FILE` or `ID`. */
  args?: string;
  options: Options;
  /** Extra lines of help: defaults, environment variables. */
  notes?: string[];
  /** env: the process environment (tests pass their own). */
  run(input: { values: Values; positionals: string[]; env: NodeJS.ProcessEnv }): Promise<number>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

/** Parses a command's arguments strictly: unknown options and missing values are UsageErrors. */
export function parseCommandArgs(command: Command, args: string[]): { values: Values; positionals: string[] } {
  const options = Object.fromEntries(
    Object.entries(command.options).map(([name, o]) => [
      name,
      o.short ? { type: o.type, short: o.short } : { type: o.type },
    ]),
  );
  try {
    const parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code?.startsWith('ERR_PARSE_ARGS')) {
      // Node's text names the fix ("To specify a positional argument …"); the first sentence is enough.
      const first = (err as Error).message.split('\n')[0]!.replace(/\. To specify.*$/, '');
      throw new UsageError(first.replace(/^Unknown option/, 'unknown option'));
    }
    throw err;
  }
}

export function requireString(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export const optionalString = (values: Values, name: string): string | undefined =>
  typeof values[name] === 'string' ? (values[name] as string) : undefined;

export function usageLine(command: Command): string {
  return `skiptrace ${command.name}${command.args ? ` ${command.args}` : ''}${Object.keys(command.options).length ? ' [options]' : ''}`;
}

export function helpText(command: Command): string {
  const lines = [`usage: ${usageLine(command)}`, '', command.summary];
  const options = Object.entries(command.options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;
    return `  ${flag.padEnd(30)} ${o.description}`;
  });
  options.push(`  ${'-h, --help'.padEnd(30)} this help`);
  lines.push('', 'options:', ...options);
  if (command.notes?.length) lines.push('', ...command.notes);
  return `${lines.join('\n')}\n`;
}
