import type { Account } from '@skiptrace/accounts';
import { requireString, type Command } from '../command.ts';
import { callSystem, withAccounts } from '../store.ts';

export const accountsCreate: Command = {
  name: 'accounts create',
  summary: 'Create an account (tenant)',
  options: { name: { type: 'string', value: 'N', description: 'display name (required)' } },
  async run({ values, env }) {
    const name = requireString(values, 'name');
    const account = await withAccounts(
      env,
      (accounts) => accounts.createAccount({ name }),
      async (system) => (await callSystem<{ account: Account }>(system, 'POST', '/accounts', { name })).account,
    );
    process.stdout.write(`${JSON.stringify({ account }, null, 2)}\n`);
    return 0;
  },
};
