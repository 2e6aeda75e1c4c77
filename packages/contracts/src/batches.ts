import { z } from 'zod';
import { BatchSummary } from './messages.ts';
import { BATCH_LIMITS, splitTags } from './batch-tags.ts';
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

/** A batch's name: the uploaded file's name by default. */
export const BatchName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(BATCH_LIMITS.name, `must be at most ${BATCH_LIMITS.name} characters`)
  .describe("The list's name (default: the uploaded file's name)");

/** One tag of a batch: no comma (the upload's ?tags= is comma-separated). */
export const BatchTag = z
  .string()
  .trim()
  .min(1, 'a tag must not be empty')
  .max(BATCH_LIMITS.tag, `a tag must be at most ${BATCH_LIMITS.tag} characters`)
  .regex(/^[^,]*$/, 'a tag must not contain a comma');

export const BatchTags = z
  .array(BatchTag)
  .max(BATCH_LIMITS.tags, `at most ${BATCH_LIMITS.tags} tags`)
  .transform((tags) => [...new Set(tags)])
  .describe('Labels of the list (at most 10, 1–40 characters, no comma)');

/** ?tags=a,b: the upload's tags as one comma-separated value, validated as BatchTags. */
export const BatchTagsQuery = z
  .string({ error: 'must be given once' })
  .max(BATCH_LIMITS.tags * (BATCH_LIMITS.tag + 1), 'tags: too long')
  .superRefine((text, ctx) => {
    const parsed = BatchTags.safeParse(splitTags(text));
    for (const issue of parsed.error?.issues ?? []) ctx.addIssue({ code: 'custom', message: issue.message });
  })
  .describe('Tags, comma-separated (at most 10, 1–40 characters each)');

/** PATCH /property/skiptrace/batches/{id}: rename, retag. */
export const BatchUpdate = z
  .object({ name: BatchName.optional(), tags: BatchTags.optional() })
  .strict()
  .refine((u) => u.name !== undefined || u.tags !== undefined, 'give name, tags or both')
  .meta({ id: 'BatchUpdate' });
export type BatchUpdate = z.infer<typeof BatchUpdate>;

/** POST /property/skiptrace/batches/{id}/rerun: a new batch of some of its rows, traced afresh. */
export const BatchRerun = z
  .object({
    rows: z
      .enum(['misses', 'all'])
      .default('misses')
      .describe('misses: the rows that found nobody (no_match); all: every accepted row (force fresh)'),
    include_failed: z
      .boolean()
      .default(false)
      .describe('misses: also the rows whose trace failed (or that were cancelled before their trace)'),
    name: BatchName.optional().describe(
      'Name of the new batch; default: the batch\'s name + " (misses)" or " (fresh)"',
    ),
    tags: BatchTags.optional().describe("Tags of the new batch; default: the batch's tags"),
  })
  .strict()
  .meta({ id: 'BatchRerun' });
export type BatchRerun = z.infer<typeof BatchRerun>;

/** GET /property/skiptrace/batches/{id}: the summary plus progress, rate and ETA. */
export const BatchStatus = BatchSummary.extend({
  name: BatchName,
  tags: z.array(z.string()).describe('Labels of the list'),
  fresh: z
    .boolean()
    .describe('True: every row is traced again, no result of the last 24 h is reused (?fresh=true, a re-run)'),
  rerun_of: z.string().nullable().describe('The batch this one re-runs (its misses, or all its rows fresh)'),
  phones: z.number().int().describe('Phone numbers found, over all rows (counted as results are stored)'),
  mobile: z.number().int().describe('Of them, mobile numbers'),
  mobile_share: z.number().nullable().describe('mobile / phones (0–1, three decimals); null without phones'),
  duration_seconds: z
    .number()
    .nullable()
    .describe('From the first chunk queued to completion (or now while running); null before it started'),
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
