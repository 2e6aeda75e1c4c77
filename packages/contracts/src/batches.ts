import { z } from 'zod';
import { BatchSummary } from './messages.ts';
import { MAPPING_FIELDS } from './property-fields.ts';

/** The fields a column can be mapped to: the Property's (mailing address as four) and the owner's whole name. */
const MappingField = z.enum(MAPPING_FIELDS);

/** field → input column name. */
export const ColumnMapping = z
  .partialRecord(MappingField, z.string())
  .describe('Field → the input column feeding it; owner_name (the whole name) is split into first/last name')
  .meta({ id: 'ColumnMapping' });

export const MappingWarning = z
  .object({
    code: z.enum(['owner_names_unmapped', 'owner_name_half_mapped']),
    message: z.string(),
  })
  .meta({ id: 'MappingWarning' });

/** How an upload was read and mapped: shown by the preview and the upload's answer. */
const ReadReport = {
  columns: z.array(z.string()).describe('The header, as read'),
  mapping: ColumnMapping,
  mapping_source: z
    .enum(['request', 'saved', 'aliases'])
    .describe("Where the mapping came from: ?map=, the account's saved mapping for this header set, or the aliases"),
  warnings: z
    .array(MappingWarning)
    .describe('What the mapping would get wrong: owner names present but not mapped, or half mapped'),
  encoding: z.string().optional().describe('Text encoding read (utf-8, utf-16le, windows-1252 …)'),
  encoding_source: z
    .enum(['bom', 'declared', 'utf16-pattern', 'detected', 'ascii'])
    .optional()
    .describe('What chose the encoding: a byte-order mark, the declared charset, detection, or ASCII only'),
  delimiter: z.string().optional().describe('CSV field delimiter, given or sniffed'),
  sheet: z.string().optional().describe('XLSX: the sheet read'),
  sheets: z.array(z.string()).optional().describe('XLSX: the sheets seen up to the one read'),
};

/** POST /property/skiptrace/batches/preview: the start of a file, read and mapped as its upload would be. */
export const BatchPreview = z
  .object({
    format: z.enum(['csv', 'ndjson', 'json', 'xlsx']),
    rows: z.array(z.array(z.string())).describe('The first rows (at most 10), cells as text'),
    ...ReadReport,
  })
  .meta({ id: 'BatchPreview' });
export type BatchPreview = z.infer<typeof BatchPreview>;

/** A saved column mapping: chosen when a file with the same header set (folded names, any order) comes again. */
export const SavedMapping = z
  .object({
    id: z.string(),
    columns: z.array(z.string()).describe('The header it was saved for'),
    map: ColumnMapping,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'SavedMapping' });

/** Answer of POST /property/skiptrace/batches (202, also on an Idempotency-Key replay). */
export const BatchAccepted = z
  .object({
    id: z.string().describe('Batch id (int64 as a string)'),
    status: BatchSummary.shape.status,
    accepted: z.number().int().describe('Rows queued for tracing'),
    rejected: z.number().int().describe('Rows refused at upload (invalid fields); their reason is in the export'),
    status_url: z.string().describe('Path of the batch status document'),
    // How the file was read and mapped (absent on an Idempotency-Key replay).
    ...z.object(ReadReport).partial().shape,
  })
  .meta({ id: 'BatchAccepted' });
export type BatchAccepted = z.infer<typeof BatchAccepted>;

/** GET /property/skiptrace/batches/{id}: the summary plus progress, rate and ETA. */
export const BatchStatus = BatchSummary.extend({
  accepted: z
    .number()
    .int()
    .describe('total − rejected: rows that are or will be traced (or were erased before their trace)'),
  started_at: z.string().nullable().describe('ISO 8601; when the first chunk was queued'),
  updated_at: z.string().describe('ISO 8601; last progress'),
  rate: z.number().describe('Rows traced per second since started_at (one decimal)'),
  eta_seconds: z.number().int().nullable().describe('Seconds until done at the current rate; null when not running'),
  status_url: z.string(),
  results_url: z.string().describe('Export: CSV or NDJSON in input order, partial while running'),
}).meta({ id: 'BatchStatus' });
export type BatchStatus = z.infer<typeof BatchStatus>;
