import type { Command } from '../command.ts';
import { accountsCreate } from './accounts.ts';
import { batchCommands } from './batch.ts';
import { clientsCreate } from './clients.ts';
import { demoDataCommand } from './demo-data.ts';
import { importSuppressionCommand } from './import-suppression.ts';
import { importCommand, importPropertiesCommand } from './import.ts';
import { quotasSet, quotasShow } from './quotas.ts';
import { usersCreate } from './users.ts';

/** Every command the CLI knows; each lives in its own file in this folder. */
export const commands: Command[] = [
  accountsCreate,
  usersCreate,
  clientsCreate,
  importCommand,
  importPropertiesCommand,
  importSuppressionCommand,
  demoDataCommand,
  quotasShow,
  quotasSet,
  ...batchCommands,
];
