/**
 * Loads a suppression list (National Do-Not-Call registry download, known-litigator list)
 * into `suppression(kind, number)`. Accepted line shapes, detected per file:
 *   5125550123            one number per line (the registry's flat full-list file)
 *   512,5550123           area code, then the 7-digit number (registry "area code,number")
 *   a CSV with a header   a phone column ("Phone", "Number", "Phone Number", …), or an
 *                         area-code column ("Area Code", "NPA") plus a number column
 * Numbers are normalised to E.164; lines without a valid US number are counted as
 * rejected. Numbers already listed (or repeated in the file) are counted as duplicates.
 * Batches are plain INSERTs until one meets a listed number: `ON CONFLICT` probes the
 * primary key before every insert, about 1.6 µs a row of PostgreSQL CPU out of 4.7
 * (packages/contacts/BENCHMARKS.md). The batch that meets one fails as a whole (nothing of
 * it stays) and is inserted again with `ON CONFLICT (kind, number) DO NOTHING`, as is every
 * later batch of the import. A large load ends with ANALYZE suppression (analyzeAfterLoad),
 * so the lookup by number plans with statistics.
 */
import { analyzeAfterLoad, type Database } from '@skiptrace/storage';
import { foldHeader } from './columns.ts';
import { csvRecords } from './csv-records.ts';
import type { ImportCounts } from './import-contacts.ts';
import { toE164 } from './phone-cache.ts';
import { textChunks } from './text-chunks.ts';
import type { ImportSource } from './text-chunks.ts';

export type SuppressionKind = 'dnc' | 'litigator';

export interface ImportSuppressionOptions {
  kind: SuppressionKind;
  /** Called after each batch with the running counts. */
  onProgress?: (counts: ImportCounts) => void;
  /** Numbers per INSERT; default 10,000. */
  batchSize?: number;
  /** Declared charset of a byte source; default: BOM, UTF-16 guess, else UTF-8. */
  charset?: string;
}

const AREA_HEADERS = new Set(['areacode', 'npa', 'area']);
const NUMBER_HEADERS = new Set([
  'phone',
  'phonenumber',
  'number',
  'telephone',
  'tel',
  'telephonenumber',
  'phone1',
  'mobile',
  'cell',
]);

const INSERT = 'INSERT INTO suppression (kind, number) SELECT $1, unnest($2::text[])';

/** SQLSTATEs of a unique constraint violation and of a deadlock. */
const UNIQUE_VIOLATION = '23505';
const DEADLOCK_DETECTED = '40P01';

interface Layout {
  area?: number;
  number: number;
}

/** A header row has a letter in it; digits-only rows are data. */
function headerLayout(fields: string[]): Layout | undefined {
  if (!fields.some((field) => /[a-z]/i.test(field))) return undefined;
  const folded = fields.map((field) => foldHeader(field.trim()));
  const area = folded.findIndex((name) => AREA_HEADERS.has(name));
  const number = folded.findIndex((name) => NUMBER_HEADERS.has(name));
  if (number === -1) throw new Error(`suppression file: no phone column in header (${fields.join(', ')})`);
  return area === -1 ? { number } : { area, number };
}

function numberOf(fields: string[], layout: Layout | undefined): string {
  if (layout)
    return (layout.area === undefined ? '' : (fields[layout.area] ?? '').trim()) + (fields[layout.number] ?? '');
  const [first = '', second] = fields;
  // Registry "NPA,NXXXXXX": a 3-digit area code and a 7-digit number.
  if (second !== undefined && /^\d{3}$/.test(first.trim())) return first.trim() + second.trim();
  return first;
}

export async function importSuppression(
  db: Database,
  source: ImportSource,
  options: ImportSuppressionOptions,
): Promise<ImportCounts> {
  const { kind, onProgress, batchSize = 10_000 } = options;
  if (kind !== 'dnc' && kind !== 'litigator') throw new Error(`unknown suppression kind: ${String(kind)}`);
  const counts: ImportCounts = { read: 0, imported: 0, duplicates: 0, rejected: 0 };
  let layout: Layout | undefined;
  let first = true;
  let batch: string[] = [];
  /** Set once a batch met a listed number: from then on every batch skips them. */
  let conflicts = false;
  const insert = async (): Promise<number> => {
    if (!conflicts) {
      try {
        return (await db.query(INSERT, [kind, batch])).rowCount;
      } catch (error) {
        // A listed number, or (two imports at once) a lost deadlock over one: both undone.
        const state = (error as { code?: unknown }).code;
        if (state !== UNIQUE_VIOLATION && state !== DEADLOCK_DETECTED) throw error;
        conflicts = true;
      }
    }
    return (await db.query(`${INSERT} ON CONFLICT (kind, number) DO NOTHING`, [kind, batch])).rowCount;
  };
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const inserted = await insert();
    counts.imported += inserted;
    counts.duplicates += batch.length - inserted;
    batch = [];
    onProgress?.({ ...counts });
  };
  for await (const records of csvRecords(textChunks(source, options.charset))) {
    for (const record of records) {
      if (first) {
        first = false;
        layout = record.fields ? headerLayout(record.fields) : undefined;
        if (layout) continue;
      }
      counts.read++;
      const number = record.fields ? toE164(numberOf(record.fields, layout)) : null;
      if (number === null) counts.rejected++;
      else batch.push(number);
      if (batch.length >= batchSize) await flush();
    }
  }
  await flush();
  await analyzeAfterLoad(db, 'suppression', counts.imported);
  return counts;
}
