/**
 * The account's API clients under /api/v1/clients (mounted by the gateway after bearer
 * authentication): list, create a client_credentials client, rotate its secret, revoke.
 * Everything is scoped to req.auth.accountId; another account's client is 404. The
 * plaintext secret leaves only in the create and rotate answers.
 */
import { auditContext, type AuditLog } from '@skiptrace/audit';
import { clientsApi, type ApiClient, type ApiClientWithSecret, type ApiScope } from '@skiptrace/contracts';
import { accountOf, ApiError, mountRoute, notFound, type Logger } from '@skiptrace/runtime';
import { Router, type RequestHandler } from 'express';
import { AccountError, type Accounts, type ClientRecord } from './accounts.service.ts';

export interface ClientsRouterDeps {
  accounts: Accounts;
  requireScope(scope: ApiScope): RequestHandler;
  logger: Logger;
  /** Where created, rotated and revoked clients are recorded. */
  audit: AuditLog;
}

export function clientView(record: ClientRecord): ApiClient {
  return {
    client_id: record.clientId,
    name: record.name,
    grant_types: record.grantTypes,
    scopes: record.scopes.split(' ').filter(Boolean),
    public: record.secretHash === null,
    created_at: record.createdAt.toISOString(),
  };
}

const withSecret = (record: ClientRecord, secret: string): ApiClientWithSecret => ({
  ...clientView(record),
  client_secret: secret,
});

export function createClientsRouter(deps: ClientsRouterDeps): Router {
  const { accounts, audit } = deps;
  const log = deps.logger.child({ scope: 'clients-api' });
  const router = Router();
  const mount = { router, requireScope: deps.requireScope, base: '/clients' };

  mountRoute(mount, clientsApi.listApiClients, async (_input, req, res) => {
    res.json({ data: (await accounts.listClients(accountOf(req))).map(clientView) });
  });

  mountRoute(mount, clientsApi.createApiClient, async ({ body }, req, res) => {
    const { client, clientSecret } = await accounts.createClient({
      name: body.name,
      accountId: accountOf(req),
      grantTypes: ['client_credentials'],
      scopes: body.scopes.join(' '),
    });
    log.info({ clientId: client.clientId, accountId: client.accountId }, 'api client created');
    await audit.record({
      ...auditContext(req),
      action: 'client.created',
      target: { type: 'client', id: client.clientId },
      details: { scopes: body.scopes },
    });
    res.status(201).location(`${req.baseUrl}/${client.clientId}`).json(withSecret(client, clientSecret!));
  });

  mountRoute(mount, clientsApi.rotateApiClientSecret, async ({ params }, req, res) => {
    let rotated;
    try {
      rotated = await accounts.rotateClientSecret(accountOf(req), params.id);
    } catch (err) {
      if (err instanceof AccountError) throw new ApiError('conflict', err.message);
      throw err;
    }
    if (!rotated) throw notFound('client');
    log.info({ clientId: params.id, accountId: accountOf(req) }, 'api client secret rotated');
    await audit.record({
      ...auditContext(req),
      action: 'client.secret_rotated',
      target: { type: 'client', id: params.id },
    });
    res.json(withSecret(rotated.client, rotated.clientSecret));
  });

  mountRoute(mount, clientsApi.revokeApiClient, async ({ params }, req, res) => {
    if (!(await accounts.revokeClient(accountOf(req), params.id))) throw notFound('client');
    log.info({ clientId: params.id, accountId: accountOf(req) }, 'api client revoked');
    await audit.record({ ...auditContext(req), action: 'client.revoked', target: { type: 'client', id: params.id } });
    res.status(204).end();
  });

  return router;
}
