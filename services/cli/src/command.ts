/** One CLI command: `pnpm skiptrace <name> [args]`. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[]): Promise<number>;
}

/** Parses `--flag value` and `--flag=value` pairs plus bare `--switch`es; the rest are positionals. */
export function parseFlags(args: string[]): { flags: Record<string, string | true>; positionals: string[] } {
  const flags: Record<string, string | true> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    else if (i + 1 < args.length && !args[i + 1]!.startsWith('--')) flags[arg.slice(2)] = args[++i]!;
    else flags[arg.slice(2)] = true;
  }
  return { flags, positionals };
}

export function requireFlag(flags: Record<string, string | true>, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export class UsageError extends Error {
  override name = 'UsageError';
}
