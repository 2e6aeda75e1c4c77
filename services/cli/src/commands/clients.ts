import { parseScopes, SCOPES, TRACE_SCOPES } from '@skiptrace/contracts';
import { optionalString, requireString, UsageError, type Command, type Values } from '../command.ts';
import { callSystem, withAccounts } from '../store.ts';

const list = (value: string | undefined) => value?.split(/[,\s]+/).filter(Boolean);

/**
 * The client's scopes from `--scope` (or the older `--scopes`): names among read, write and
 * admin, separated by spaces or commas, checked here; without either, what a trace needs
 * (TRACE_SCOPES, `read write`), said on stderr.
 */
export function scopeOption(values: Values, stderr: NodeJS.WritableStream = process.stderr): string {
  const given = optionalString(values, 'scope') ?? optionalString(values, 'scopes');
  if (given === undefined) {
    stderr.write(`scopes: ${TRACE_SCOPES.join(' ')} (the default: what a trace needs; --scope to choose)\n`);
    return TRACE_SCOPES.join(' ');
  }
  const { scopes, unknown } = parseScopes(given);
  if (unknown.length)
    throw new UsageError(`--scope: unknown scope ${unknown.join(', ')} (scopes: ${SCOPES.join(', ')})`);
  if (!scopes.length) throw new UsageError(`--scope: name at least one of ${SCOPES.join(', ')}`);
  return scopes.join(' ');
}

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
    scope: {
      type: 'string',
      value: '"read write"',
      description: `its scopes among ${SCOPES.join(', ')} (default "${TRACE_SCOPES.join(' ')}": what a trace needs)`,
    },
    scopes: { type: 'string', value: '"read write"', description: 'the same as --scope (older name)' },
    public: { type: 'boolean', description: 'no secret; authorization_code with PKCE' },
  },
  async run({ values, env }) {
    const input = {
      name: requireString(values, 'name'),
      accountId: optionalString(values, 'account'),
      grantTypes: list(optionalString(values, 'grants')),
      redirectUris: list(optionalString(values, 'redirect-uri')),
      scopes: scopeOption(values),
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
