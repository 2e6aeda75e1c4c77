/**
 * `skiptrace batch submit|status|list|cancel|download`: the batch API through the typed
 * client. Uploads stream from disk; progress goes to stderr (a bar on a terminal, a line
 * per change otherwise), machine-readable results to stdout.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { unwrap, type ApiClient, type Schemas } from '@skiptrace/client';
import { isOpenBatch } from '@skiptrace/contracts/batch-states';
import { splitTags } from '@skiptrace/contracts/batch-tags';
import { basename } from 'node:path';
import { API_NOTES, API_OPTIONS, connect } from '../api.ts';
import { optionalString, requireString, UsageError, type Command, type Values } from '../command.ts';
import { MAP_OPTION, mapQuery } from '../map-option.ts';

type BatchStatus = Schemas['BatchStatus'];

/** Seconds between status polls while waiting. */
const POLL_SECONDS = 1;
/** Without a terminal, a progress line at most this often (ms) unless the status changes. */
const LINE_INTERVAL_MS = 10_000;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The head of a text file the preview reads (as the console sends it); a workbook is sent whole. */
const PREVIEW_BYTES = 256 * 1024;

function contentType(file: string): string {
  if (/\.xlsx$/i.test(file)) return XLSX;
  if (/\.(ndjson|jsonl)$/i.test(file)) return 'application/x-ndjson';
  if (/\.json$/i.test(file)) return 'application/json';
  return 'text/csv';
}

function progressText(s: BatchStatus): string {
  const done = s.processed + s.rejected;
  const share = s.total > 0 ? done / s.total : 1;
  const eta = s.eta_seconds === null ? '' : ` eta ${s.eta_seconds}s`;
  return `${(share * 100).toFixed(1)}% ${done}/${s.total} ${s.status} ${s.rate} rows/s${eta}`;
}

function bar(s: BatchStatus, width = 30): string {
  const share = s.total > 0 ? (s.processed + s.rejected) / s.total : 1;
  const filled = Math.round(Math.min(share, 1) * width);
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${progressText(s)}   `;
}

/** Polls until the batch leaves queued/running; returns its last status. */
async function follow(api: ApiClient, id: string, stderr = process.stderr): Promise<BatchStatus> {
  const tty = stderr.isTTY === true;
  let lastLine = 0;
  let lastStatus = '';
  for (;;) {
    const s = await unwrap(api.GET('/property/skiptrace/batches/{id}', { params: { path: { id } } }));
    if (tty) stderr.write(bar(s));
    else if (s.status !== lastStatus || Date.now() - lastLine >= LINE_INTERVAL_MS) {
      stderr.write(`batch ${id}: ${progressText(s)}\n`);
      lastLine = Date.now();
    }
    lastStatus = s.status;
    if (!isOpenBatch(s.status)) {
      if (tty) stderr.write('\n');
      return s;
    }
    await sleep(POLL_SECONDS * 1000);
  }
}

/** Prints a new batch, or with --wait follows it to its end and prints that (exit 1 unless completed). */
async function printOrFollow(api: ApiClient, accepted: { id: string }, wait: boolean): Promise<number> {
  if (!wait) {
    print(accepted);
    return 0;
  }
  const last = await follow(api, accepted.id);
  print(last);
  return last.status === 'completed' ? 0 : 1;
}

const batchId = (positionals: string[]): string => {
  const [id, extra] = positionals;
  if (!id) throw new UsageError('ID is required');
  if (extra !== undefined) throw new UsageError(`unexpected argument: ${extra}`);
  return id;
};

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** How the server is to read the file: --charset, --delimiter, --sheet (each detected when absent). */
const readQuery = (values: Values) => ({
  charset: optionalString(values, 'charset'),
  delimiter: optionalString(values, 'delimiter'),
  sheet: optionalString(values, 'sheet'),
});

/** A list's name and tags: --name, --tag a,b. */
const IDENTITY_OPTIONS = {
  name: { type: 'string', value: 'NAME', description: "the list's name (default: the file's name)" },
  tag: { type: 'string', value: 'TAG,…', description: 'tags of the list, comma-separated (at most 10)' },
} as const;

const tagsOf = (values: Values): string[] | undefined => {
  const text = optionalString(values, 'tag');
  return text === undefined ? undefined : splitTags(text);
};

const READ_OPTIONS = {
  charset: {
    type: 'string',
    value: 'NAME',
    description: 'text encoding, e.g. windows-1252 (default: byte-order mark, else detected)',
  },
  delimiter: { type: 'string', value: 'D', description: 'CSV delimiter: , ; | or tab (default: sniffed)' },
  sheet: { type: 'string', value: 'NAME', description: 'XLSX sheet by name or number (default: the first)' },
} as const;

export const batchSubmit: Command = {
  name: 'batch submit',
  summary: 'Upload a CSV, XLSX, NDJSON or JSON file of properties as a batch (streamed from disk)',
  args: 'FILE',
  options: {
    wait: { type: 'boolean', description: 'follow progress until the batch finishes; exit 1 unless completed' },
    ...MAP_OPTION,
    'save-mapping': { type: 'boolean', description: 'remember the mapping for files with these columns' },
    ...IDENTITY_OPTIONS,
    fresh: { type: 'boolean', description: 'trace every row again: reuse no result of the last 24 h' },
    ...READ_OPTIONS,
    'idempotency-key': { type: 'string', value: 'KEY', description: 'same key and file within 24 h: the same batch' },
    ...API_OPTIONS,
  },
  notes: [
    'FILE.xlsx is sent as a workbook, .ndjson/.jsonl as NDJSON, .json as a JSON array, anything else as CSV.',
    'Before uploading, the start of the file is previewed by the server: the encoding, delimiter or sheet read,',
    'the mapping, and a warning when owner-name columns are left unmapped (or half) go to stderr.',
    ...API_NOTES,
  ],
  async run({ values, positionals, env }) {
    const file = batchId(positionals);
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch {
      throw new UsageError(`no such file: ${file}`);
    }
    const map = mapQuery(values);
    // Following the batch reads its status: a token obtained here needs both scopes then.
    const { api } = await connect(values, values.wait === true ? 'read write' : 'write', env);
    const type = contentType(file);
    const read = readQuery(values);
    // Before the batch starts: how the server reads and maps the file, and what it warns about.
    const partial = type !== XLSX && size > PREVIEW_BYTES;
    const head = Readable.toWeb(createReadStream(file, partial ? { end: PREVIEW_BYTES - 1 } : {})) as unknown as string;
    const preview = await unwrap(
      api.POST('/property/skiptrace/batches/preview', {
        params: { query: { map, ...read, partial: partial ? 'true' : undefined } },
        headers: { 'Content-Type': type },
        body: head,
        bodySerializer: (body) => body,
        duplex: 'half',
      }),
    );
    const how = [
      preview.encoding && `encoding ${preview.encoding} (${preview.encoding_source})`,
      preview.delimiter && `delimiter ${JSON.stringify(preview.delimiter)}`,
      preview.sheet && `sheet ${preview.sheet}`,
    ].filter(Boolean);
    if (how.length) process.stderr.write(`read as: ${how.join(', ')}\n`);
    const fields = Object.entries(preview.mapping).map(([field, column]) => `${field}=${column}`);
    process.stderr.write(`mapping (${preview.mapping_source}): ${fields.join(', ') || 'none'}\n`);
    for (const warning of preview.warnings) process.stderr.write(`warning: ${warning.message}\n`);
    process.stderr.write(`uploading ${file} (${(size / 1048576).toFixed(1)} MiB)…\n`);
    const key = optionalString(values, 'idempotency-key');
    // The body is the file itself, streamed (fetch needs duplex 'half' for that) and not serialised.
    const stream = Readable.toWeb(createReadStream(file)) as unknown as string;
    const accepted = await unwrap(
      api.POST('/property/skiptrace/batches', {
        params: {
          query: {
            map,
            ...read,
            save_mapping: values['save-mapping'] === true ? 'true' : undefined,
            name: optionalString(values, 'name') ?? basename(file),
            tags: tagsOf(values)?.join(','),
            fresh: values.fresh === true ? 'true' : undefined,
          },
          header: key ? { 'Idempotency-Key': key } : {},
        },
        headers: { 'Content-Type': type },
        body: stream,
        bodySerializer: (body) => body,
        duplex: 'half',
      }),
    );
    process.stderr.write(`batch ${accepted.id}: ${accepted.accepted} rows accepted, ${accepted.rejected} rejected\n`);
    return printOrFollow(api, accepted, values.wait === true);
  },
};

export const batchStatus: Command = {
  name: 'batch status',
  summary: 'Print a batch: counts, rate and ETA (JSON)',
  args: 'ID',
  options: { wait: { type: 'boolean', description: 'follow progress until it finishes' }, ...API_OPTIONS },
  notes: API_NOTES,
  async run({ values, positionals, env }) {
    const id = batchId(positionals);
    const { api } = await connect(values, 'read', env);
    const s =
      values.wait === true
        ? await follow(api, id)
        : await unwrap(api.GET('/property/skiptrace/batches/{id}', { params: { path: { id } } }));
    print(s);
    return 0;
  },
};

export const batchList: Command = {
  name: 'batch list',
  summary: "The account's batches, newest first",
  options: {
    limit: { type: 'string', value: 'N', description: 'how many (1–500, default 20)' },
    json: { type: 'boolean', description: 'one JSON object a line instead of a table' },
    ...API_OPTIONS,
  },
  notes: API_NOTES,
  async run({ values, positionals, env }) {
    if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const limit = Number(optionalString(values, 'limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError('--limit must be an integer 1–500');
    const { api } = await connect(values, 'read', env);
    const batches = await unwrap(api.GET('/property/skiptrace/batches', { params: { query: { limit } } }));
    if (values.json === true) {
      for (const b of batches) print(b);
      return 0;
    }
    const rows = batches.map((b) => [
      b.id,
      b.name,
      b.status,
      `${b.processed + b.rejected}/${b.total}`,
      // Of the rows traced: rows erased before their trace count in processed, not here.
      b.processed > b.erased ? `${((b.matched / (b.processed - b.erased)) * 100).toFixed(1)}%` : '-',
      String(b.phones),
      b.mobile_share === null ? '-' : `${(b.mobile_share * 100).toFixed(1)}%`,
      String(b.reused),
      b.tags.join(','),
      b.created_at,
    ]);
    const table = [
      ['ID', 'NAME', 'STATUS', 'DONE', 'MATCHED', 'PHONES', 'MOBILE', 'REUSED', 'TAGS', 'CREATED'],
      ...rows,
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
    for (const r of table) process.stdout.write(`${r.map((c, i) => c.padEnd(widths[i]!)).join('  ')}\n`);
    return 0;
  },
};

export const batchUpdate: Command = {
  name: 'batch update',
  summary: 'Rename a batch or replace its tags',
  args: 'ID',
  options: { ...IDENTITY_OPTIONS, ...API_OPTIONS },
  notes: ['--tag "" removes every tag.', ...API_NOTES],
  async run({ values, positionals, env }) {
    const id = batchId(positionals);
    const name = optionalString(values, 'name');
    const tags = typeof values.tag === 'string' ? splitTags(values.tag) : undefined;
    if (name === undefined && tags === undefined) throw new UsageError('give --name, --tag or both');
    const { api } = await connect(values, 'write', env);
    print(
      await unwrap(
        api.PATCH('/property/skiptrace/batches/{id}', {
          params: { path: { id } },
          body: { ...(name !== undefined && { name }), ...(tags !== undefined && { tags }) },
        }),
      ),
    );
    return 0;
  },
};

export const batchRerun: Command = {
  name: 'batch rerun',
  summary: 'A new batch of the misses of a finished batch (--all: every row), traced afresh',
  args: 'ID',
  options: {
    all: { type: 'boolean', description: 'every accepted row, not only the misses (force fresh)' },
    'include-failed': { type: 'boolean', description: 'with the misses, the rows whose trace failed' },
    ...IDENTITY_OPTIONS,
    wait: { type: 'boolean', description: 'follow progress until the new batch finishes; exit 1 unless completed' },
    ...API_OPTIONS,
  },
  notes: [
    'No row of the new batch is answered from the results of the last 24 h: each is traced again.',
    'Default name: the batch\'s name + " (misses)" (or " (fresh)" with --all); default tags: the batch\'s.',
    ...API_NOTES,
  ],
  async run({ values, positionals, env }) {
    const id = batchId(positionals);
    const { api } = await connect(values, values.wait === true ? 'read write' : 'write', env);
    const name = optionalString(values, 'name');
    const tags = tagsOf(values);
    const accepted = await unwrap(
      api.POST('/property/skiptrace/batches/{id}/rerun', {
        params: { path: { id } },
        body: {
          rows: values.all === true ? 'all' : 'misses',
          include_failed: values['include-failed'] === true,
          ...(name !== undefined && { name }),
          ...(tags !== undefined && { tags }),
        },
      }),
    );
    process.stderr.write(`batch ${accepted.id}: re-run of batch ${id}, ${accepted.accepted} rows\n`);
    return printOrFollow(api, accepted, values.wait === true);
  },
};

export const batchCancel: Command = {
  name: 'batch cancel',
  summary: 'Cancel the remaining work of a batch (--purge: erase it and its rows)',
  args: 'ID',
  options: { purge: { type: 'boolean', description: 'erase the batch, its rows and results' }, ...API_OPTIONS },
  notes: API_NOTES,
  async run({ values, positionals, env }) {
    const id = batchId(positionals);
    const { api } = await connect(values, 'write', env);
    const purge = values.purge === true;
    const result = await unwrap(
      api.DELETE('/property/skiptrace/batches/{id}', {
        params: { path: { id }, query: purge ? { purge: 'true' } : {} },
      }),
    );
    if (purge) process.stderr.write(`batch ${id} purged\n`);
    else print(result);
    return 0;
  },
};

function downloadFormat(values: Values, out: string): 'csv' | 'ndjson' | 'xlsx' {
  const asked = optionalString(values, 'format');
  if (asked === undefined) return /\.(ndjson|jsonl)$/i.test(out) ? 'ndjson' : /\.xlsx$/i.test(out) ? 'xlsx' : 'csv';
  if (asked === 'csv' || asked === 'ndjson' || asked === 'xlsx') return asked;
  throw new UsageError('--format must be csv, ndjson or xlsx');
}

export const batchDownload: Command = {
  name: 'batch download',
  summary: 'Save the results of a batch in input order (partial while it runs)',
  args: 'ID',
  options: {
    out: { type: 'string', short: 'o', value: 'FILE', description: 'where to write (required)' },
    format: {
      type: 'string',
      value: 'csv|ndjson|xlsx',
      description: 'default: from FILE (.ndjson/.jsonl, .xlsx), else CSV',
    },
    ...API_OPTIONS,
  },
  notes: API_NOTES,
  async run({ values, positionals, env }) {
    const id = batchId(positionals);
    const out = requireString(values, 'out');
    const format = downloadFormat(values, out);
    const { api } = await connect(values, 'read', env);
    const { data, error, response } = await api.GET('/property/skiptrace/batches/{id}/results', {
      params: { path: { id }, query: { format } },
      parseAs: 'stream',
    });
    if (!response.ok || !data) await unwrap(Promise.resolve({ data, error, response }));
    await pipeline(Readable.fromWeb(data as never), createWriteStream(out));
    process.stderr.write(`wrote ${out} (batch status ${response.headers.get('x-batch-status') ?? 'unknown'})\n`);
    return 0;
  },
};

export const batchCommands = [batchSubmit, batchStatus, batchList, batchUpdate, batchRerun, batchCancel, batchDownload];
