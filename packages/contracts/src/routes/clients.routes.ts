import { ApiClientCreate, ApiClientList, ApiClientWithSecret } from '../clients.ts';
import { StringIdParams } from './params.ts';
import { defineRoute } from './route.ts';

const tag = 'API clients';
const clientId = StringIdParams('client_id');
const example = {
  client_id: 'cli_Yq3vN0bWm1xKc8Zt',
  name: 'nightly import',
  grant_types: ['client_credentials'],
  scopes: ['read', 'write'],
  public: false,
  created_at: '2026-01-05T14:00:00.000Z',
  client_secret: 'Xb1u0m8y0l8f4q9Qk3m2c7h5w6r1t0p9a8s7d6f5g4h',
};

export const listApiClients = defineRoute({
  method: 'get',
  path: '/clients',
  operationId: 'listApiClients',
  summary: "The account's OAuth clients, oldest first",
  tag,
  scope: 'admin',
  responses: { 200: { description: 'Clients (never their secrets)', schema: ApiClientList } },
  errors: [],
});

export const createApiClient = defineRoute({
  method: 'post',
  path: '/clients',
  operationId: 'createApiClient',
  summary: 'Create a client_credentials client; its secret is shown only in this answer',
  description:
    'Exchange the id and secret at the token endpoint (grant_type=client_credentials) for tokens of the ' +
    'same account with at most the scopes given here.',
  tag,
  scope: 'admin',
  body: ApiClientCreate,
  responses: { 201: { description: 'Created', schema: ApiClientWithSecret, example } },
  errors: ['validation_failed', 'invalid_json', 'unsupported_media_type'],
});

export const rotateApiClientSecret = defineRoute({
  method: 'post',
  path: '/clients/{id}/rotate-secret',
  operationId: 'rotateApiClientSecret',
  summary: 'Replace the secret; the old one stops working at once',
  tag,
  scope: 'admin',
  params: clientId,
  responses: { 200: { description: 'The client with its new secret', schema: ApiClientWithSecret, example } },
  errors: ['invalid_parameter', 'not_found', 'conflict'],
});

export const revokeApiClient = defineRoute({
  method: 'delete',
  path: '/clients/{id}',
  operationId: 'revokeApiClient',
  summary: 'Delete the client: no new tokens; access tokens it holds end within their lifetime',
  tag,
  scope: 'admin',
  params: clientId,
  responses: { 204: { description: 'Revoked' } },
  errors: ['invalid_parameter', 'not_found'],
});

export const clientRoutes = [listApiClients, createApiClient, rotateApiClientSecret, revokeApiClient] as const;
