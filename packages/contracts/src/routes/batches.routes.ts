import { z } from 'zod';
import {
  BatchAccepted,
  BatchName,
  BatchPreview,
  BatchRerun,
  BatchStatus,
  BatchTagsQuery,
  BatchUpdate,
  SavedMapping,
} from '../batches.ts';
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
  name: 'propstream-austin-jan.csv',
  tags: ['austin', 'absentee'],
  fresh: false,
  rerun_of: null,
  phones: 14200,
  mobile: 9800,
  mobile_share: 0.69,
  duration_seconds: 8,
  accepted: 9988,
  started_at: '2026-01-05T14:00:01.000Z',
  updated_at: '2026-01-05T14:00:09.000Z',
  rate: 775,
  eta_seconds: 5,
  status_url: '/api/v1/property/skiptrace/batches/17',
  results_url: '/api/v1/property/skiptrace/batches/17/results',
};

/** How a file is read and mapped: the upload's and the preview's query. */
const ReadQuery = {
  map: z
    .string({ error: 'must be given once' })
    .max(4000)
    .optional()
    .describe(
      'Column map, field=column pairs separated by commas, e.g. street_address=Address,zip_code=Postal ' +
        '(field:column is read the same way). Without it: the saved mapping for this header set, else the aliases.',
    ),
  charset: z
    .string({ error: 'must be given once' })
    .max(40)
    .optional()
    .describe(
      'Text encoding (utf-8, utf-16le, windows-1252, iso-8859-1 …); overrides the Content-Type charset and detection',
    ),
  delimiter: z
    .string({ error: 'must be given once' })
    .max(10)
    .optional()
    .describe(
      'CSV field delimiter: , ; | or tab (also comma, semicolon, pipe, tab); default: sniffed from the first lines',
    ),
  sheet: z
    .string({ error: 'must be given once' })
    .max(200)
    .optional()
    .describe('XLSX: the sheet to read, by name or 1-based position; default the first'),
  save_mapping: z
    .enum(['true', 'false'])
    .optional()
    .describe("true: remember the mapping used for this header set (the account's saved mappings)"),
};

const UPLOAD_BODY = {
  'text/csv': z.string().describe('A header row, then one property a row (delimiter , ; tab or |)'),
  'application/x-ndjson': z.string().describe('One Property object a line'),
  'application/json': z.array(Property),
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': z
    .string()
    .describe('An Excel workbook (.xlsx): the first (or ?sheet=) sheet, its first non-empty row the header'),
};

export const submitBatch = defineRoute({
  method: 'post',
  path: BASE,
  operationId: 'submitBatch',
  summary: 'Upload up to 1,000,000 properties as CSV, XLSX, NDJSON or a JSON array (streamed)',
  description:
    'Headers are matched to the Property fields by alias (`Address`, `Zip`, `Owner 1 First Name`, `SITUS_ADDR` …) ' +
    "after folding case, spaces and punctuation, or by the account's saved mapping for the header set; `?map=` names " +
    'the rest. The text encoding is detected unless declared, the CSV delimiter sniffed unless given. A file with no ' +
    'row is refused with 400 before a batch exists. Invalid rows are rejected one by one (row number and reason), not ' +
    'the batch. See docs/batches.md.',
  tag: 'Batches',
  scope: 'write',
  query: z.object({
    ...ReadQuery,
    name: BatchName.optional().describe(
      'The list\'s name; default: the Content-Disposition filename, else "Batch <id>"',
    ),
    tags: BatchTagsQuery.optional(),
    fresh: z
      .enum(['true', 'false'])
      .optional()
      .describe('true: trace every row again; no result of the last 24 h (BATCH_REUSE_TTL) is reused'),
  }),
  headers: IdempotencyHeaders,
  rawBody: UPLOAD_BODY,
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

export const previewBatch = defineRoute({
  method: 'post',
  path: `${BASE}/preview`,
  operationId: 'previewBatch',
  summary: 'Read the start of a file exactly as its upload would be, and store nothing',
  description:
    'The header, the first rows, the encoding, delimiter or sheet read, the mapping (explicit, saved or by alias) ' +
    'and its warnings. `?partial=true` when the body is only the first bytes of a larger file: a row or character ' +
    'cut off at the end is dropped.',
  tag: 'Batches',
  scope: 'write',
  query: z.object({
    ...ReadQuery,
    partial: z.enum(['true', 'false']).optional().describe('true: the body is the head of a larger file'),
  }),
  rawBody: UPLOAD_BODY,
  responses: { 200: { description: 'The preview', schema: BatchPreview } },
  errors: ['validation_failed', 'invalid_parameter', 'unsupported_media_type', 'payload_too_large'],
});

export const listMappings = defineRoute({
  method: 'get',
  path: `${BASE}/mappings`,
  operationId: 'listMappings',
  summary: "The account's saved column mappings, newest first",
  tag: 'Batches',
  scope: 'read',
  responses: { 200: { description: 'Saved mappings', schema: z.array(SavedMapping) } },
  errors: [],
});

export const deleteMapping = defineRoute({
  method: 'delete',
  path: `${BASE}/mappings/{id}`,
  operationId: 'deleteMapping',
  summary: 'Forget a saved column mapping',
  tag: 'Batches',
  scope: 'write',
  params: IdParams('Saved mapping id'),
  responses: { 204: { description: 'Deleted' } },
  errors: ['invalid_parameter', 'not_found'],
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

export const updateBatch = defineRoute({
  method: 'patch',
  path: `${BASE}/{id}`,
  operationId: 'updateBatch',
  summary: 'Rename a batch or change its tags',
  tag: 'Batches',
  scope: 'write',
  params: batchId,
  body: BatchUpdate,
  responses: { 200: { description: 'The status document', schema: BatchStatus } },
  errors: ['invalid_parameter', 'validation_failed', 'invalid_json', 'not_found'],
});

export const rerunBatch = defineRoute({
  method: 'post',
  path: `${BASE}/{id}/rerun`,
  operationId: 'rerunBatch',
  summary: 'A new batch of the misses (or all rows) of a finished batch, traced afresh',
  description:
    'Copies the rows of a finished batch that found nobody (`rows: misses`; with `include_failed` also the ' +
    'failed and cancelled ones), or every accepted row (`rows: all`), into a new batch with `fresh: true`: ' +
    'every row is traced again, none is answered from the 24 h reuse cache. Rows keep their input columns; ' +
    "their row numbers are the new batch's (1…n, in the order of the original rows).",
  tag: 'Batches',
  scope: 'write',
  params: batchId,
  body: BatchRerun,
  responses: {
    202: {
      description: 'The new batch; the Location header and status_url name its status document',
      schema: BatchAccepted,
      headers: z.object({ Location: z.string().describe("Path of the new batch's status") }),
    },
  },
  errors: ['invalid_parameter', 'validation_failed', 'invalid_json', 'not_found', 'conflict'],
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
    'The format follows ?format=, else the Accept header, else CSV (XLSX: the same columns in a workbook). ' +
    'The row column is the input row number (1: the first row after the header); rejected rows carry their reason in error.',
  tag: 'Batches',
  scope: 'read',
  // A download is a data export: members and above, not viewers (docs/oauth.md, roles).
  role: 'member',
  params: batchId,
  query: z.object({ format: z.enum(['csv', 'ndjson', 'xlsx']).optional().describe('Overrides the Accept header') }),
  responses: {
    200: {
      description: 'Rows in input order',
      content: {
        'text/csv': z.string(),
        'application/x-ndjson': z.string().describe('One object a line: the input row, status, error, results'),
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': z
          .string()
          .describe('An Excel workbook, one sheet "Results" with the CSV export\'s columns'),
      },
      headers: z.object({ 'X-Batch-Status': BatchStatus.shape.status.describe('Batch status when the export began') }),
    },
  },
  errors: ['invalid_parameter', 'not_found'],
});

export const listRejects = defineRoute({
  method: 'get',
  path: `${BASE}/{id}/rejects`,
  operationId: 'listRejects',
  summary: 'Rejected rows with their row numbers and reasons (JSON pages, or all as CSV)',
  tag: 'Batches',
  scope: 'read',
  // The rows' input in bulk, as the export (which needs member too).
  role: 'member',
  params: batchId,
  query: z.object({
    limit: z.coerce.number().int().min(1).max(500).default(50).describe('JSON: rows per page (1–500, default 50)'),
    after: z.coerce
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('JSON: the rows after this row number (the last row of the page before)'),
    format: z
      .enum(['json', 'csv'])
      .optional()
      .describe('csv: every reject as a download (row, reason, the input columns)'),
  }),
  responses: {
    200: {
      description: 'Rejects in row order',
      content: {
        'application/json': z.array(
          z
            .object({
              row: z.number().int().describe('Input row number (1: the first row after the header)'),
              reason: z.string().describe('Every bad field, or why the row could not be read'),
              input: z.unknown().describe('The row as read: cells by input column, or the unreadable line'),
            })
            .meta({ id: 'BatchReject' }),
        ),
        'text/csv': z.string(),
      },
    },
  },
  errors: ['invalid_parameter', 'not_found'],
});

export const batchRoutes = [
  submitBatch,
  previewBatch,
  listMappings,
  deleteMapping,
  listBatches,
  getBatch,
  updateBatch,
  rerunBatch,
  cancelBatch,
  exportBatch,
  listRejects,
] as const;
