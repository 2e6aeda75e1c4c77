/**
 * Streams a contact file into the contact store: read → normalise → COPY, in batches.
 * Memory stays flat whatever the file size: at most a few batches of COPY text are held
 * (the batches in flight and the one being normalised, about 2.2 MB each for 10,000 demo
 * rows; see contact-stage.ts). Bad rows go to `rejects` as `line,reason` CSV and the
 * import carries on. Into an empty store the rows go to a table without indexes that is
 * indexed once and then takes the place of `contacts` (contact-load.ts); into a store with
 * rows, batch by batch with the indexes kept up row by row (contact-stage.ts).
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { analyzeAfterLoad, type Database } from '@skiptrace/storage';
import { csvContacts, ndjsonContacts } from './contact-readers.ts';
import { bulkLoadable, createBulkLoad } from './contact-load.ts';
import { createContactStage, type BatchWritten } from './contact-stage.ts';
import { rowSource } from './row-source.ts';
import { csvCell } from '@skiptrace/runtime';
import { textChunks } from './text-chunks.ts';
import type { ImportSource } from './text-chunks.ts';

export type ContactFormat = 'csv' | 'ndjson';

export interface ImportCounts {
  /** Data records read (header and blank lines excluded). */
  read: number;
  /** New rows stored. */
  imported: number;
  /** Valid rows already in the store (or repeated in the file). */
  duplicates: number;
  /** Rows written to the reject stream. */
  rejected: number;
}

export interface ImportContactsOptions {
  format: ContactFormat;
  /** Canonical column → header in the file; wins over the built-in aliases. */
  map?: Record<string, string>;
  /** Label stored in contacts.source (e.g. the file name); default ''. */
  source?: string;
  /** Called after each batch is stored with the running counts. */
  onProgress?: (counts: ImportCounts) => void;
  /** Receives `line,reason` CSV (with a header line) for each rejected row. */
  rejects?: Writable;
  /** Rows per COPY batch; default 10,000. */
  batchSize?: number;
  /** Declared charset of a byte source (e.g. iso-8859-1); default: BOM, UTF-16 guess, else UTF-8. */
  charset?: string;
}

export const DEFAULT_BATCH_SIZE = 10_000;

/** The rejects report is a CSV too: its cells go through the neutralising encoder. */
const csvField = (value: string): string => csvCell(value);

export async function writeOut(stream: Writable | undefined, text: string): Promise<void> {
  if (stream === undefined || text === '') return;
  if (!stream.write(text)) await once(stream, 'drain');
}

/** Yields the already-pulled first item, then the rest of the generator. */
async function* resume<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}

export async function importContacts(
  db: Database,
  source: ImportSource,
  options: ImportContactsOptions,
): Promise<ImportCounts> {
  const { format, map, rejects, onProgress, batchSize = DEFAULT_BATCH_SIZE, charset } = options;
  const counts: ImportCounts = { read: 0, imported: 0, duplicates: 0, rejected: 0 };
  const records = (format === 'csv' ? csvContacts : ndjsonContacts)(textChunks(source, charset), map);
  // Pull the header before creating the staging tables, so a file with unusable columns
  // fails before touching the database.
  const first = await records.next();
  await writeOut(rejects, 'line,reason\n');
  const rows = rowSource(
    resume(first, records),
    options.source ?? '',
    (read) => (counts.read += read),
    (rejected) => {
      counts.rejected += rejected.length;
      let text = '';
      for (const { line, reason } of rejected) text += `${line},${csvField(reason)}\n`;
      return writeOut(rejects, text);
    },
  );
  const written = ({ staged, inserted }: BatchWritten): void => {
    counts.imported += inserted;
    counts.duplicates += staged - inserted;
    onProgress?.({ ...counts });
  };
  // An empty store is filled through a table without indexes that then replaces it
  // (contact-load.ts); a store with rows takes the new ones batch by batch (contact-stage.ts).
  const bulk = (await bulkLoadable(db)) ? await createBulkLoad(db, written) : undefined;
  const writer = bulk ?? (await createContactStage(db, written));
  let analyzed = false;
  try {
    while (!rows.exhausted) await writer.load(rows.batch(batchSize));
    await writer.flush();
    if (bulk) analyzed = await bulk.finish();
  } finally {
    await rows.close();
    await writer.dispose();
  }
  // Before the first lookup meets the new rows: without statistics, a chunk's candidate
  // lookup right after a large import was planned as a sequential scan (storage/statistics.ts).
  // A bulk load that replaced contacts analyzed it before the swap.
  if (!analyzed) await analyzeAfterLoad(db, 'contacts', counts.imported);
  if (counts.imported + counts.duplicates === 0) onProgress?.({ ...counts });
  return counts;
}

/** How many contacts an import with this `source` stored (the demo's seeding checks it has run). */
export async function countContacts(db: Database, source: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM contacts WHERE source = $1`, [source]);
  return rows[0]?.n ?? 0;
}
