/**
 * The oidc-provider `Client` model, backed by the clients table instead of the artefact
 * store. find() returns the client's metadata with `client_secret` set to the stored
 * scrypt hash: the provider needs some secret to treat the client as confidential, and
 * the Client.prototype.compareClientSecret override (installed by the auth service) checks
 * the presented secret against that hash. Consequence: secret-keyed features (HS256,
 * client_secret_jwt) cannot work and are switched off in the provider configuration.
 * upsert() is reached only by RFC 7591 registration (no registration access tokens are
 * issued, so there is no update path); it hashes the generated secret before storing.
 */
import { errors } from 'oidc-provider';
import { textProblem } from '@skiptrace/runtime';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { AccountError, type Accounts, type ClientRecord } from '@skiptrace/accounts';

/** RFC 7591 metadata kept verbatim from a registration; everything else is derived. */
const KEPT_METADATA = [
  'client_uri',
  'logo_uri',
  'tos_uri',
  'policy_uri',
  'contacts',
  'application_type',
  'post_logout_redirect_uris',
];
const SECRET_METHODS = new Set(['client_secret_post', 'client_secret_basic']);

export function clientMetadata(record: ClientRecord): AdapterPayload {
  const kept = Object.fromEntries(Object.entries(record.metadata).filter(([k]) => KEPT_METADATA.includes(k)));
  const method = record.metadata.token_endpoint_auth_method;
  return {
    ...kept,
    client_id: record.clientId,
    client_name: record.name,
    grant_types: record.grantTypes,
    redirect_uris: record.redirectUris,
    response_types: record.grantTypes.includes('authorization_code') ? ['code'] : [],
    scope: record.scopes,
    account_id: record.accountId,
    ...(record.secretHash === null
      ? { token_endpoint_auth_method: 'none' }
      : {
          client_secret: record.secretHash,
          token_endpoint_auth_method:
            typeof method === 'string' && SECRET_METHODS.has(method) ? method : 'client_secret_post',
        }),
  } as AdapterPayload;
}

const unsupported = async (): Promise<undefined> => undefined;

export function createClientAdapter(accounts: Accounts): Adapter {
  return {
    async find(id) {
      // A client_id PostgreSQL cannot hold (NUL, a lone surrogate) names no client.
      if (textProblem(id)) return undefined;
      const record = await accounts.findClient(id);
      return record && clientMetadata(record);
    },
    async upsert(id, payload) {
      const method = payload.token_endpoint_auth_method;
      try {
        await accounts.createClient({
          clientId: id,
          clientSecret: typeof payload.client_secret === 'string' ? payload.client_secret : undefined,
          name: payload.client_name ?? id,
          accountId: typeof payload.account_id === 'string' ? payload.account_id : undefined,
          grantTypes: payload.grant_types && [...payload.grant_types],
          redirectUris: payload.redirect_uris && [...payload.redirect_uris],
          scopes: payload.scope,
          public: method === 'none',
          metadata: Object.fromEntries(
            Object.entries(payload).filter(([k]) => KEPT_METADATA.includes(k) || k === 'token_endpoint_auth_method'),
          ),
        });
      } catch (err) {
        if (err instanceof AccountError) throw new errors.InvalidClientMetadata(err.message);
        throw err;
      }
    },
    async destroy(id) {
      await accounts.deleteClient(id);
    },
    findByUid: unsupported,
    findByUserCode: unsupported,
    consume: unsupported,
    revokeByGrantId: unsupported,
  };
}
