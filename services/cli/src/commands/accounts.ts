import { withAuthDatabase } from '@skiptrace/accounts';
import { requireString, type Command } from '../command.ts';

export const accountsCreate: Command = {
  name: 'accounts create',
  summary: 'Create an account (tenant)',
  options: { name: { type: 'string', value: 'N', description: 'display name (required)' } },
  async run({ values }) {
    const name = requireString(values, 'name');
    const account = await withAuthDatabase((accounts) => accounts.createAccount({ name }));
    process.stdout.write(`${JSON.stringify({ account }, null, 2)}\n`);
    return 0;
  },
};
