import { z } from 'zod';
import { BatchAccepted, BatchStatus } from '../batches.ts';
import { ListQuery, Property } from '../property.ts';
import { IdempotencyHeaders, IdParams, PageHeaders } from './params.ts';
import { defineRoute } from './route.ts';

const BASE = '/property/skiptrace/batches';
const batchId = IdParams('Batch id');
const statusExample = {
  id: '17',
  status: 'running',
  total: 10000,
  processed: 6200,
  matched: 5100,
  no_match: 1050,
  failed: 50,
  erased: 0,
  rejected: 12,
  reused: 300,
  created_at: '2026-01-05T14:00:00.000Z',
  accepted: 9988,
  started_at: '2026-01-05T14:00:01.000Z',
  updated_at: '2026-01-05T14:00:09.000Z',
  rate: 775,
  eta_seconds: 5,
  status_url: '/api/v1/property/skiptrace/batches/17',
  results_url: '/api/v1/property/skiptrace/batches/17/results',
};

export const submitBatch = defineRoute({
  method: 'post',
  path: BASE,
  operationId: 'submitBatch',
  summary: 'Upload up to 1,000,000 properties as CSV, NDJSON or a JSON array (streamed)',
  description:
    'CSV headers are matched to the Property fields by alias (`Address`, `Zip`, `Owner First Name` …); ' +
    '`?map=` names the rest. Invalid rows are rejected one by one, not the batch. See docs/batches.md.',
  tag: 'Batches',
  scope: 'write',
  query: z.object({
    map: z
      .string({ error: 'must be given once' })
      .max(4000)
      .optional()
      .describe('Column map, field:column pairs separated by commas, e.g. street_address:Address,zip_code:Postal'),
  }),
  headers: IdempotencyHeaders,
  rawBody: {
    'text/csv': z.string().describe('A header row, then one property a row'),
    'application/x-ndjson': z.string().describe('One Property object a line'),
    'application/json': z.array(Property),
  },
  responses: {
    202: {
      description: 'Accepted; the Location header and status_url name the status document',
      schema: BatchAccepted,
      headers: z.object({ Location: z.string().describe('Path of the batch status') }),
      example: { id: '17', status: 'queued', accepted: 9988, rejected: 12, status_url: `/api/v1${BASE}/17` },
    },
  },
  errors: [
    'validation_failed',
    'invalid_parameter',
    'unsupported_media_type',
    'payload_too_large',
    'idempotency_conflict',
    'conflict',
  ],
});

export const listBatches = defineRoute({
  method: 'get',
  path: BASE,
  operationId: 'listBatches',
  summary: "The account's batches, newest first",
  tag: 'Batches',
  scope: 'read',
  query: ListQuery,
  responses: { 200: { description: 'Batches', schema: z.array(BatchStatus), headers: PageHeaders } },
  errors: ['invalid_parameter'],
});

export const getBatch = defineRoute({
  method: 'get',
  path: `${BASE}/{id}`,
  operationId: 'getBatch',
  summary: 'Progress, counts, rate and ETA',
  tag: 'Batches',
  scope: 'read',
  params: batchId,
  responses: { 200: { description: 'Batch', schema: BatchStatus, example: statusExample } },
  errors: ['invalid_parameter', 'not_found'],
});

export const cancelBatch = defineRoute({
  method: 'delete',
  path: `${BASE}/{id}`,
  operationId: 'cancelBatch',
  summary: 'Cancel the remaining work; ?purge=true erases the batch and its rows',
  tag: 'Batches',
  scope: 'write',
  params: batchId,
  query: z.object({
    purge: z.enum(['true', 'false']).optional().describe('true: erase the batch, its rows and results (any status)'),
  }),
  responses: {
    200: { description: 'Cancelled: the status document', schema: BatchStatus },
    204: { description: 'Purged' },
  },
  errors: ['invalid_parameter', 'not_found', 'conflict'],
});

export const exportBatch = defineRoute({
  method: 'get',
  path: `${BASE}/{id}/results`,
  operationId: 'exportBatch',
  summary: 'Streamed results in input order (CSV or NDJSON), partial while running',
  description:
    'CSV: the input columns, then five phone groups (phone_N, _type, _dnc, _litigator and the first name, ' +
    'last name, emails, owner and resident flags and current address of its person, best person first), ' +
    'owners_of_record (names joined with "; ") and mailing_address_used, confidence, status and error; when one of ' +
    'these names is already an input column, all of them take the prefix result_. ' +
    'The format follows ?format=, else the Accept header, else CSV.',
  tag: 'Batches',
  scope: 'read',
  // A download is a data export: members and above, not viewers (docs/oauth.md, roles).
  role: 'member',
  params: batchId,
  query: z.object({ format: z.enum(['csv', 'ndjson']).optional().describe('Overrides the Accept header') }),
  responses: {
    200: {
      description: 'Rows in input order',
      content: {
        'text/csv': z.string(),
        'application/x-ndjson': z.string().describe('One object a line: the input row, status, error, results'),
      },
      headers: z.object({ 'X-Batch-Status': BatchStatus.shape.status.describe('Batch status when the export began') }),
    },
  },
  errors: ['invalid_parameter', 'not_found'],
});

export const batchRoutes = [submitBatch, listBatches, getBatch, cancelBatch, exportBatch] as const;
