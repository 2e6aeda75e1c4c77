import { withAuthDatabase } from '@skiptrace/auth';
import { parseFlags, requireFlag, UsageError, type Command } from '../command.ts';

export const accountsCommand: Command = {
  name: 'accounts',
  summary: 'Create an account (tenant): accounts create --name N',
  usage: 'create --name N',
  async run(args) {
    const { flags, positionals } = parseFlags(args);
    if (positionals[0] !== 'create') throw new UsageError('unknown subcommand; expected "create"');
    const name = requireFlag(flags, 'name');
    const account = await withAuthDatabase((accounts) => accounts.createAccount({ name }));
    process.stdout.write(`${JSON.stringify({ account }, null, 2)}\n`);
    return 0;
  },
};
