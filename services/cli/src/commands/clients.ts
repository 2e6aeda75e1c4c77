import { withAuthDatabase } from '@skiptrace/accounts';
import { optionalString, requireString, type Command } from '../command.ts';

const list = (value: string | undefined) => value?.split(/[,\s]+/).filter(Boolean);

export const clientsCreate: Command = {
  name: 'clients create',
  summary:
    "Create an OAuth client in the database; prints its secret once (the API's POST /clients does this over HTTP)",
  options: {
    name: { type: 'string', value: 'N', description: 'display name (required)' },
    account: { type: 'string', value: 'A', description: 'existing account id; without it a new account is created' },
    grants: {
      type: 'string',
      value: 'G,…',
      description: 'client_credentials (default), authorization_code, refresh_token',
    },
    'redirect-uri': { type: 'string', value: 'U[,U2]', description: 'needed with authorization_code' },
    scopes: { type: 'string', value: '"read write"', description: 'default read' },
    public: { type: 'boolean', description: 'no secret; authorization_code with PKCE' },
  },
  async run({ values }) {
    const input = {
      name: requireString(values, 'name'),
      accountId: optionalString(values, 'account'),
      grantTypes: list(optionalString(values, 'grants')),
      redirectUris: list(optionalString(values, 'redirect-uri')),
      scopes: optionalString(values, 'scopes'),
      public: values.public === true,
    };
    const { client, clientSecret } = await withAuthDatabase((accounts) => accounts.createClient(input));
    const { secretHash: _hash, metadata: _metadata, ...shown } = client;
    process.stdout.write(`${JSON.stringify({ client: shown, clientSecret }, null, 2)}\n`);
    return 0;
  },
};
