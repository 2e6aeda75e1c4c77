/** The CLI's commands, for embedding and tests; `main.ts` is the executable. */
export type { Command } from './command.ts';
export { commands } from './commands/index.ts';
export { batchCommand } from './commands/batch.ts';
