import { optionalString, requireString, type Command } from '../command.ts';
import { callSystem, withAccounts } from '../store.ts';

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
  async run({ values, env }) {
    const input = {
      name: requireString(values, 'name'),
      accountId: optionalString(values, 'account'),
      grantTypes: list(optionalString(values, 'grants')),
      redirectUris: list(optionalString(values, 'redirect-uri')),
      scopes: optionalString(values, 'scopes'),
      public: values.public === true,
    };
    const created = await withAccounts(
      env,
      async (accounts) => {
        const { client, clientSecret } = await accounts.createClient(input);
        const { secretHash: _hash, metadata: _metadata, ...shown } = client;
        return { client: shown, clientSecret };
      },
      (system) => callSystem<{ client: unknown; clientSecret?: string }>(system, 'POST', '/clients', input),
    );
    process.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
    return 0;
  },
};
