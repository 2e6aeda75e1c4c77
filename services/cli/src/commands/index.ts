import type { Command } from '../command.ts';
import { accountsCommand } from './accounts.ts';
import { batchCommand } from './batch.ts';
import { clientsCommand } from './clients.ts';
import { demoDataCommand } from './demo-data.ts';
import { importSuppressionCommand } from './import-suppression.ts';
import { importCommand } from './import.ts';
import { usersCommand } from './users.ts';

/** Every command the CLI knows; each lives in its own file in this folder. */
export const commands: Command[] = [
  accountsCommand,
  usersCommand,
  clientsCommand,
  importCommand,
  importSuppressionCommand,
  demoDataCommand,
  batchCommand,
];
