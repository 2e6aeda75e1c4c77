import type { Command } from '../command.ts';

/** Every command the CLI knows; each lives in its own file in this folder. */
export const commands: Command[] = [];
