import { ConfigError } from '@skiptrace/runtime';
import { UsageError } from './command.ts';
import { commands } from './commands/index.ts';

function help(): string {
  const lines = commands.map((c) => `  ${c.name.padEnd(20)} ${c.summary}`);
  return `usage: pnpm skiptrace <command> [options]\n\ncommands:\n${lines.join('\n')}\n`;
}

const [name, ...args] = process.argv.slice(2);
const command = commands.find((c) => c.name === name);
if (!command) {
  process.stderr.write(name && name !== 'help' && name !== '--help' ? `unknown command: ${name}\n\n${help()}` : help());
  process.exit(name && name !== 'help' && name !== '--help' ? 2 : 0);
}
try {
  process.exitCode = await command.run(args);
} catch (err) {
  if (err instanceof UsageError || err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n\nusage: pnpm skiptrace ${command.name} ${command.usage}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  }
}
