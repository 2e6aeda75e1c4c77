import { AccountError, withAuthDatabase } from '@skiptrace/auth';
import { parseFlags, requireFlag, UsageError, type Command } from '../command.ts';

export const usersCommand: Command = {
  name: 'users',
  summary: 'Create a user who signs in with email and password',
  usage: 'create --email E --password P [--account A]   (no --account: a new account is created)',
  async run(args) {
    const { flags, positionals } = parseFlags(args);
    if (positionals[0] !== 'create') throw new UsageError('unknown subcommand; expected "create"');
    const email = requireFlag(flags, 'email');
    const password = requireFlag(flags, 'password');
    const accountId = typeof flags.account === 'string' ? flags.account : undefined;
    try {
      const user = await withAuthDatabase((accounts) => accounts.createUser({ email, password, accountId }));
      process.stdout.write(`${JSON.stringify({ user }, null, 2)}\n`);
      return 0;
    } catch (err) {
      if (!(err instanceof AccountError)) throw err;
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
  },
};
