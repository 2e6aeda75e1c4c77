import { Quotas, QuotaUpdate, Usage, UsageQuery } from '../usage.ts';
import { defineRoute } from './route.ts';

const tag = 'Usage';

export const getUsage = defineRoute({
  method: 'get',
  path: '/usage',
  operationId: 'getUsage',
  summary: "The account's usage per UTC day or per API client, its quotas and rate limit",
  description:
    'Counted once where the work is stored (a retried job or chunk is not counted again). ' +
    'A hit is a trace or batch row whose result holds at least one phone.',
  tag,
  scope: 'read',
  query: UsageQuery,
  responses: { 200: { description: 'Usage in the range', schema: Usage } },
  errors: ['invalid_parameter'],
});

export const getQuotas = defineRoute({
  method: 'get',
  path: '/usage/quotas',
  operationId: 'getQuotas',
  summary: "The account's monthly quotas",
  tag,
  scope: 'read',
  responses: { 200: { description: 'The quotas (null: none)', schema: Quotas } },
  errors: [],
});

export const updateQuotas = defineRoute({
  method: 'patch',
  path: '/usage/quotas',
  operationId: 'updateQuotas',
  summary: 'Set or remove the monthly quotas (hits, rows); traces past one answer 429 code 1301',
  description:
    'At 80 % of a quota the account gets one `quota.warning` webhook event per month and quota. ' +
    'A field left out keeps its value; null removes the quota.',
  tag,
  scope: 'admin',
  body: QuotaUpdate,
  responses: { 200: { description: 'The quotas now', schema: Quotas } },
  errors: ['validation_failed', 'invalid_json', 'unsupported_media_type'],
});

export const usageRoutes = [getUsage, getQuotas, updateQuotas] as const;
