import { z } from 'zod';
import { HISTORY_SCAN_ROWS, HistoryQuery, Property, PropertyResponse } from '../property.ts';
import { IdempotencyHeaders, IdParams, PageHeaders } from './params.ts';
import { defineRoute } from './route.ts';

const example = {
  id: 42,
  status: 'completed',
  results: [
    {
      first_name: 'Maria',
      last_name: 'Garcia',
      confidence: 0.97,
      reasons: ['owner name matches', 'address matches'],
      phones: [{ number: '+15125550147', type: 'mobile', dnc: false, litigator: false }],
      emails: ['maria.garcia@example.com'],
    },
  ],
  truncated: false,
  property: { street_address: '1200 Barton Springs Rd', city: 'Austin', state: 'TX', zip_code: '78704' },
  created_at: '2026-01-05T14:03:11.000Z',
  completed_at: '2026-01-05T14:03:11.120Z',
};

export const listSkipTraces = defineRoute({
  method: 'get',
  path: '/property/skiptrace',
  operationId: 'listSkipTraces',
  summary: "The account's skip-trace results, newest first, searchable",
  description:
    'Filters (all optional, all must hold): `address`, `name`, `phone`, `batch`, `status`, `from`, `to`. ' +
    `A search examines at most ${HISTORY_SCAN_ROWS} rows a page (the account's newest first, or with \`batch\` ` +
    "that batch's rows, last first): a page may hold fewer than `limit` results, even none, and still carry " +
    'X-Next-Cursor; follow it to search on. A malformed filter answers 400 `invalid_parameter`, e.g. ' +
    '`{"error":1002,"message":"status: must be one of pending, completed, no_match, failed"}`. ' +
    'Each entry carries its `batch_id` (batch rows) and its `standardized_address`.',
  tag: 'Skip trace',
  scope: 'read',
  query: HistoryQuery,
  responses: { 200: { description: 'Results', schema: z.array(PropertyResponse), headers: PageHeaders } },
  errors: ['invalid_parameter'],
});

export const skipTrace = defineRoute({
  method: 'post',
  path: '/property/skiptrace',
  operationId: 'skipTrace',
  summary: 'Send a property to obtain phone numbers for its owner',
  description:
    'Waits for the trace up to the sync deadline; past it the answer has status `pending` and the id to poll.',
  tag: 'Skip trace',
  scope: 'write',
  headers: IdempotencyHeaders,
  body: Property,
  responses: {
    200: {
      description: 'The result, or status pending when the sync deadline passed',
      schema: PropertyResponse,
      example,
    },
  },
  errors: ['validation_failed', 'invalid_json', 'unsupported_media_type', 'payload_too_large', 'idempotency_conflict'],
});

export const getSkipTrace = defineRoute({
  method: 'get',
  path: '/property/skiptrace/{id}',
  operationId: 'getSkipTrace',
  summary: 'One skip-trace result (poll target for pending)',
  tag: 'Skip trace',
  scope: 'read',
  params: IdParams('Property id', true),
  responses: { 200: { description: 'The result', schema: PropertyResponse, example } },
  errors: ['invalid_parameter', 'not_found'],
});

export const deletePlant = defineRoute({
  method: 'delete',
  path: '/plants/{id}',
  operationId: 'deletePlant',
  summary: 'Erase property {id} and its results',
  description: "The seed's plant delete: removes the property, its results and its idempotency keys.",
  tag: 'Skip trace',
  scope: 'write',
  params: IdParams('Property id', true),
  responses: { 204: { description: 'Deleted' } },
  errors: ['invalid_parameter', 'not_found'],
});

export const skiptraceRoutes = [listSkipTraces, skipTrace, getSkipTrace, deletePlant] as const;
