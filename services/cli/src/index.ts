/** The CLI's commands, for embedding and tests; `main.ts` is the executable. */
export type { Command } from './command.ts';
export { runCli, type CliIo } from './cli.ts';
export { commands } from './commands/index.ts';
export { batchCommands } from './commands/batch.ts';
