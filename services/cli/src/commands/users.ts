import type { User } from '@skiptrace/accounts';
import { optionalString, requireString, type Command } from '../command.ts';
import { requireSecret } from '../secrets.ts';
import { callSystem, withAccounts } from '../store.ts';

export const usersCreate: Command = {
  name: 'users create',
  summary: 'Create a user who signs in with email and password',
  options: {
    email: { type: 'string', value: 'E', description: 'sign-in email (required)' },
    'password-file': { type: 'string', value: 'FILE', description: 'the password from the first line of FILE' },
    password: {
      type: 'string',
      value: 'P',
      description: 'the password (visible in ps; prefer the file, env or prompt)',
    },
    account: { type: 'string', value: 'A', description: 'existing account id; without it a new account is created' },
  },
  notes: ['The password comes from --password-file, SKIPTRACE_PASSWORD, --password, or a prompt on a terminal.'],
  async run({ values, env }) {
    const email = requireString(values, 'email');
    const password = await requireSecret({
      label: 'password',
      option: 'password',
      value: optionalString(values, 'password'),
      file: optionalString(values, 'password-file'),
      envName: 'SKIPTRACE_PASSWORD',
      env,
    });
    const accountId = optionalString(values, 'account');
    const input = { email, password, accountId };
    const user = await withAccounts(
      env,
      (accounts) => accounts.createUser(input),
      async (system) => (await callSystem<{ user: User }>(system, 'POST', '/users', input)).user,
    );
    process.stdout.write(`${JSON.stringify({ user }, null, 2)}\n`);
    return 0;
  },
};
