/**
 * OpenAPI path items for the batch and webhook-subscription APIs. Their bodies are
 * described by the component schemas registered in property.ts, messages.ts and
 * webhooks.ts; the prose of each behaviour lives in docs/batches.md and docs/webhooks.md.
 */
type Json = Record<string, unknown>;
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const err = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      String(s),
      { description: 'Error', content: { 'application/json': { schema: ref('Error') } } },
    ]),
  );
const ok = (description: string, schema?: Json, type = 'application/json') =>
  schema ? { description, content: { [type]: { schema } } } : { description };
const read = [{ bearer: ['read'] }, { oauth2: ['read'] }];
const write = [{ bearer: ['write'] }, { oauth2: ['write'] }];
const pathId = (description: string, integer = false) => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: integer ? { type: 'integer', format: 'int64' } : { type: 'string' },
});
const list = (items: Json) => ({ type: 'array', items });
const batchStatus = {
  type: 'object',
  description:
    'BatchSummary plus accepted, started_at, updated_at, rate (rows/s), eta_seconds, status_url, results_url',
  allOf: [ref('BatchSummary')],
};

export const batchPaths: Record<string, Json> = {
  '/property/skiptrace/batches': {
    post: {
      operationId: 'submitBatch',
      summary: 'Upload up to 1,000,000 properties as CSV, NDJSON or a JSON array (streamed)',
      security: write,
      parameters: [
        {
          name: 'map',
          in: 'query',
          required: false,
          schema: { type: 'string' },
          description: 'e.g. street_address:Address',
        },
        { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 200 } },
      ],
      requestBody: {
        required: true,
        content: {
          'text/csv': { schema: { type: 'string' } },
          'application/x-ndjson': { schema: { type: 'string' } },
          'application/json': { schema: list(ref('Property')) },
        },
      },
      responses: {
        '202': ok('Accepted: {id, status, accepted, rejected, status_url}', { type: 'object' }),
        ...err(400, 401, 403, 409, 413, 415, 503),
      },
    },
    get: {
      operationId: 'listBatches',
      summary: "The account's batches, newest first (cursor in X-Next-Cursor)",
      security: read,
      responses: { '200': ok('Batches', list(batchStatus)), ...err(400, 401, 403) },
    },
  },
  '/property/skiptrace/batches/{id}': {
    get: {
      operationId: 'getBatch',
      summary: 'Progress, counts, rate and ETA',
      security: read,
      parameters: [pathId('Batch id')],
      responses: { '200': ok('Batch', batchStatus), ...err(401, 403, 404) },
    },
    delete: {
      operationId: 'cancelBatch',
      summary: 'Cancel the remaining work; ?purge=true erases the batch and its rows',
      security: write,
      parameters: [pathId('Batch id'), { name: 'purge', in: 'query', required: false, schema: { type: 'boolean' } }],
      responses: { '200': ok('Cancelled', batchStatus), '204': ok('Purged'), ...err(401, 403, 404, 409) },
    },
  },
  '/property/skiptrace/batches/{id}/results': {
    get: {
      operationId: 'exportBatch',
      summary: 'Streamed results in input order (CSV or NDJSON), partial while running',
      security: read,
      parameters: [pathId('Batch id')],
      responses: {
        '200': {
          description: 'Rows in input order',
          content: {
            'text/csv': { schema: { type: 'string' } },
            'application/x-ndjson': { schema: { type: 'string' } },
          },
        },
        ...err(401, 403, 404, 406),
      },
    },
  },
};

const endpointId = pathId('Endpoint id');
export const webhookPaths: Record<string, Json> = {
  '/webhooks/endpoints': {
    post: {
      operationId: 'createWebhookEndpoint',
      summary: 'Subscribe a URL to events; the secret is shown only here and on rotation',
      security: write,
      requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEndpointCreate') } } },
      responses: { '201': ok('Created', ref('WebhookEndpointWithSecret')), ...err(400, 401, 403) },
    },
    get: {
      operationId: 'listWebhookEndpoints',
      summary: "The account's endpoints",
      security: read,
      responses: { '200': ok('Endpoints', list(ref('WebhookEndpoint'))), ...err(401, 403) },
    },
  },
  '/webhooks/endpoints/{id}': {
    get: {
      operationId: 'getWebhookEndpoint',
      security: read,
      parameters: [endpointId],
      responses: { '200': ok('Endpoint', ref('WebhookEndpoint')), ...err(401, 403, 404) },
    },
    patch: {
      operationId: 'updateWebhookEndpoint',
      security: write,
      parameters: [endpointId],
      requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEndpointPatch') } } },
      responses: { '200': ok('Endpoint', ref('WebhookEndpoint')), ...err(400, 401, 403, 404) },
    },
    delete: {
      operationId: 'deleteWebhookEndpoint',
      security: write,
      parameters: [endpointId],
      responses: { '204': ok('Deleted'), ...err(401, 403, 404) },
    },
  },
  '/webhooks/endpoints/{id}/rotate-secret': {
    post: {
      operationId: 'rotateWebhookSecret',
      summary: 'New secret; old and new both sign for 24 h',
      security: write,
      parameters: [endpointId],
      responses: { '200': ok('Endpoint with the new secret', ref('WebhookEndpointWithSecret')), ...err(401, 403, 404) },
    },
  },
  '/webhooks/endpoints/{id}/test': {
    post: {
      operationId: 'testWebhookEndpoint',
      summary: 'Send a test event',
      security: write,
      parameters: [endpointId],
      responses: { '202': ok('Queued', ref('WebhookDelivery')), ...err(401, 403, 404, 409) },
    },
  },
  '/webhooks/endpoints/{id}/deliveries': {
    get: {
      operationId: 'listWebhookDeliveries',
      summary: 'Messages with status and every attempt',
      security: read,
      parameters: [endpointId],
      responses: { '200': ok('Deliveries', list(ref('WebhookDelivery'))), ...err(401, 403, 404) },
    },
  },
  '/webhooks/endpoints/{id}/recover': {
    post: {
      operationId: 'recoverWebhookDeliveries',
      summary: 'Send failed messages since a time again, with the same webhook-id',
      security: write,
      parameters: [endpointId, { name: 'since', in: 'query', required: true, schema: { type: 'string' } }],
      responses: { '202': ok('Recovering', { type: 'object' }), ...err(400, 401, 403, 404) },
    },
  },
  '/webhooks/deliveries/{id}': {
    get: {
      operationId: 'getWebhookDelivery',
      security: read,
      parameters: [pathId('Delivery id')],
      responses: { '200': ok('Delivery', ref('WebhookDelivery')), ...err(401, 403, 404) },
    },
  },
  '/webhooks/deliveries/{id}/replay': {
    post: {
      operationId: 'replayWebhookDelivery',
      summary: 'Send again with the same webhook-id',
      security: write,
      parameters: [pathId('Delivery id')],
      responses: { '202': ok('Replaying', ref('WebhookDelivery')), ...err(401, 403, 404, 409) },
    },
  },
};
