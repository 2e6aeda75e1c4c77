import { z } from 'zod';
import { ERROR_CODES } from './errors.ts';
import { LIMITS } from './property.ts';
import './oauth.ts';
import './messages.ts';
import './webhooks.ts';
import { batchPaths, webhookPaths } from './openapi-extra-paths.ts';

/**
 * The OpenAPI 3.1 document, generated from the Zod schemas: every schema registered
 * with `.meta({ id })` becomes a component, and paths reference them. Served at
 * GET /api/v1/openapi.json.
 */
export interface OpenApiOptions {
  /** Base URL of the API, ending in /api/v1. */
  apiUrl: string;
  /** Base URL of the OAuth server (no /api/v1). */
  authUrl: string;
}

type Json = Record<string, unknown>;
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: Json, description: string) => ({ description, content: { 'application/json': { schema } } });

function components(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _s, id: _id, ...rest } = schema;
    out[id] = rest;
  }
  return out;
}

const errorTable = Object.entries(ERROR_CODES)
  .map(([name, e]) => `| ${e.code} | ${e.status} | ${name} | ${e.meaning} |`)
  .join('\n');

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), json(ref('Error'), `Error (see the code table)`)]));

const idParam = (description: string) => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'integer', format: 'int64', minimum: 1 },
});

export function buildOpenApiDocument({ apiUrl, authUrl }: OpenApiOptions): Json {
  const read = [{ bearer: ['read'] }, { oauth2: ['read'] }];
  const write = [{ bearer: ['write'] }, { oauth2: ['write'] }];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Property Skip-Trace API',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      description: `Submit a property, get the owner's phone numbers.\n\n| code | status | name | meaning |\n|---|---|---|---|\n${errorTable}`,
    },
    servers: [{ url: apiUrl }],
    security: read,
    paths: {
      '/property/skiptrace': {
        get: {
          operationId: 'listSkipTraces',
          summary: "The account's skip-trace results, newest first",
          security: read,
          parameters: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              description: `Maximum results (default ${LIMITS.listDefault}, maximum ${LIMITS.listMax})`,
              schema: { type: 'integer', format: 'int32', minimum: 1, maximum: LIMITS.listMax },
            },
            {
              name: 'cursor',
              in: 'query',
              required: false,
              description: 'The X-Next-Cursor value of the previous page',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': {
              ...json({ type: 'array', items: ref('PropertyResponse') }, 'Results'),
              headers: {
                'X-Next-Cursor': {
                  description: 'Cursor of the next page, when there is one',
                  schema: { type: 'string' },
                },
              },
            },
            ...errorResponses(400, 401, 403, 503),
          },
        },
        post: {
          operationId: 'skipTrace',
          summary: 'Send a property to obtain phone numbers for its owner',
          security: write,
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: 'Same key and body return the same response for 24 h',
              schema: { type: 'string', maxLength: 200 },
            },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: ref('Property') } } },
          responses: {
            '200': json(ref('PropertyResponse'), 'The result, or status pending when the sync deadline passed'),
            ...errorResponses(400, 401, 403, 409, 413, 415, 503),
          },
        },
      },
      '/property/skiptrace/{id}': {
        get: {
          operationId: 'getSkipTrace',
          summary: 'One skip-trace result (poll target for pending)',
          security: read,
          parameters: [idParam('Property id')],
          responses: { '200': json(ref('PropertyResponse'), 'The result'), ...errorResponses(400, 401, 403, 404) },
        },
      },
      '/plants/{id}': {
        delete: {
          operationId: 'deletePlant',
          summary: 'Erase property {id} and its results',
          security: write,
          parameters: [idParam('Property id')],
          responses: { '204': { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404) },
        },
      },
      ...batchPaths,
      ...webhookPaths,
    },
    webhooks: {
      'plant.added': {
        post: {
          summary: 'A property was accepted (the seed\'s "plant added to the store"); delivered to POST /plant/webhook',
          requestBody: { content: { 'application/json': { schema: ref('StoredProperty') } } },
          responses: { '200': { description: 'Received' } },
        },
      },
      'skiptrace.completed': {
        post: {
          summary: 'A skip trace finished',
          requestBody: { content: { 'application/json': { schema: ref('PropertyResponse') } } },
          responses: { '200': { description: 'Received' } },
        },
      },
      'batch.completed': {
        post: {
          summary: 'A batch finished',
          requestBody: { content: { 'application/json': { schema: ref('BatchSummary') } } },
          responses: { '200': { description: 'Received' } },
        },
      },
    },
    components: {
      schemas: components(),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        oauth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: `${authUrl}/oauth/authorize`,
              tokenUrl: `${authUrl}/oauth/token`,
              refreshUrl: `${authUrl}/oauth/token`,
              scopes: { read: 'Read results', write: 'Submit and delete' },
            },
            clientCredentials: {
              tokenUrl: `${authUrl}/oauth/token`,
              scopes: { read: 'Read results', write: 'Submit and delete' },
            },
          },
        },
      },
    },
  };
}
