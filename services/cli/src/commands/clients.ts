import { AccountError, withAuthDatabase } from '@skiptrace/auth';
import { parseFlags, requireFlag, UsageError, type Command } from '../command.ts';

const list = (value: string | true | undefined) =>
  typeof value === 'string' ? value.split(/[,\s]+/).filter(Boolean) : undefined;

export const clientsCommand: Command = {
  name: 'clients',
  summary: 'Create an OAuth client; prints its secret once',
  usage:
    'create --name N [--account A] [--grants client_credentials,authorization_code,refresh_token] ' +
    '[--redirect-uri U[,U2]] [--scopes "read write"] [--public]',
  async run(args) {
    const { flags, positionals } = parseFlags(args);
    if (positionals[0] !== 'create') throw new UsageError('unknown subcommand; expected "create"');
    const input = {
      name: requireFlag(flags, 'name'),
      accountId: typeof flags.account === 'string' ? flags.account : undefined,
      grantTypes: list(flags.grants),
      redirectUris: list(flags['redirect-uri']),
      scopes: typeof flags.scopes === 'string' ? flags.scopes : undefined,
      public: flags.public === true,
    };
    try {
      const { client, clientSecret } = await withAuthDatabase((accounts) => accounts.createClient(input));
      const { secretHash: _hash, metadata: _metadata, ...shown } = client;
      process.stdout.write(`${JSON.stringify({ client: shown, clientSecret }, null, 2)}\n`);
      return 0;
    } catch (err) {
      if (!(err instanceof AccountError)) throw err;
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
  },
};
