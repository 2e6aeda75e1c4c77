/**
 * `pnpm skiptrace import FILE`: streams a contact file into the contact store, with a
 * progress bar on a terminal (periodic lines otherwise) and an optional reject file.
 * Also home of the helpers the other data commands share (database, progress).
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import type { ImportContactsOptions, ImportCounts } from '@skiptrace/contacts';
import { ImportFormatError, importContacts, importProperties } from '@skiptrace/contacts';
import { ApiError } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import { optionalString, UsageError, type Command } from '../command.ts';
import { MAP_OPTION, mapRecord } from '../map-option.ts';
import { AdminApiError, importThroughSystem, openDirect, storeAccess } from '../store.ts';

/**
 * The store the services use (openStore: DATABASE_URL, else PGlite under
 * SKIPTRACE_DATA_DIR/pglite), migrated; refused while another process holds the embedded
 * store (the commands check storeAccess first and go through that process instead).
 */
export const openDatabase = (env: NodeJS.ProcessEnv = process.env): Promise<Database> => openDirect(env);

/**
 * Runs an import through the running one-process system when it holds the embedded store
 * (store.ts); undefined when the command should open the store itself. A file the system
 * refuses is a UsageError, as it is locally.
 */
export async function importViaRunningSystem(
  env: NodeJS.ProcessEnv,
  what: 'contacts' | 'properties' | 'suppression',
  input: NodeJS.ReadableStream & AsyncIterable<Buffer>,
  options: Record<string, unknown>,
  hooks: { rejects?: NodeJS.WritableStream; onProgress?: (counts: ImportCounts) => void },
): Promise<ImportCounts | undefined> {
  const access = await storeAccess(env);
  if (access.kind !== 'running') return undefined;
  try {
    return await importThroughSystem(access.system, what, input, options, hooks);
  } catch (error) {
    if (error instanceof AdminApiError && error.status === 400) throw new UsageError(error.message);
    throw error;
  }
}

/** Interval between progress lines when stderr is not a terminal (ms). */
const LOG_INTERVAL_MS = 2000;
const BAR_WIDTH = 30;

export interface Progress {
  update(counts: ImportCounts): void;
  done(counts: ImportCounts): string;
}

/** Progress on stderr: a `\r` bar on a TTY (by bytes read), periodic lines otherwise. */
export function progressReporter(totalBytes: number, bytesRead: () => number): Progress {
  const started = performance.now();
  const tty = process.stderr.isTTY === true;
  let lastLine = started;
  const rate = (rows: number): number => Math.round(rows / Math.max((performance.now() - started) / 1000, 0.001));
  return {
    update(counts) {
      const fraction = totalBytes > 0 ? Math.min(bytesRead() / totalBytes, 1) : 0;
      const text = `${counts.read.toLocaleString('en-US')} rows, ${rate(counts.read).toLocaleString('en-US')} rows/s`;
      if (tty) {
        const filled = Math.round(fraction * BAR_WIDTH);
        const bar = `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%`;
        process.stderr.write(`\r${bar} ${text}   `);
      } else if (performance.now() - lastLine >= LOG_INTERVAL_MS) {
        lastLine = performance.now();
        process.stderr.write(`${(fraction * 100).toFixed(0)}% ${text}\n`);
      }
    },
    done(counts) {
      if (tty) process.stderr.write('\n');
      const seconds = (performance.now() - started) / 1000;
      return (
        `read ${counts.read}, imported ${counts.imported}, duplicates ${counts.duplicates}, ` +
        `rejected ${counts.rejected} in ${seconds.toFixed(1)} s (${rate(counts.read)} rows/s)`
      );
    },
  };
}

/** Stats an input file; a missing one is a usage error, not a crash. */
export async function fileSize(file: string): Promise<{ size: number }> {
  try {
    return await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`no such file: ${file}`);
    throw error;
  }
}

function formatOf(file: string, flag: string | undefined): 'csv' | 'ndjson' {
  if (flag === undefined) return /\.(nd)?jsonl?$/i.test(file) ? 'ndjson' : 'csv';
  if (flag === 'csv' || flag === 'ndjson') return flag;
  throw new UsageError('--format must be csv or ndjson');
}

/** What an importer takes: the contact import's options, which the property import shares. */
type Importer = (
  db: Database,
  input: NodeJS.ReadableStream & AsyncIterable<Buffer>,
  options: ImportContactsOptions,
) => Promise<ImportCounts>;

/**
 * A file import command: one shape for contacts and property records — same options
 * (--format, --map, --rejects, --source, --charset), progress, exit codes and errors.
 */
function fileImportCommand(
  name: string,
  summary: string,
  what: string,
  kind: 'contacts' | 'properties',
  importer: Importer,
  notes: string[] = [],
): Command {
  return {
    name,
    summary,
    args: 'FILE',
    options: {
      format: { type: 'string', value: 'csv|ndjson', description: 'default: from FILE (.ndjson/.jsonl), else CSV' },
      ...MAP_OPTION,
      rejects: { type: 'string', value: 'FILE', description: 'write rejected rows with their line number and reason' },
      source: { type: 'string', value: 'LABEL', description: `source label stored with the ${what} (default FILE)` },
      charset: {
        type: 'string',
        value: 'NAME',
        description: 'text encoding, e.g. iso-8859-1 (default: byte-order mark, UTF-16 guess, else UTF-8)',
      },
    },
    notes: [
      ...notes,
      'Uses DATABASE_URL, else PGlite under SKIPTRACE_DATA_DIR; while ./run start runs on it, the import goes through that process.',
    ],
    async run({ values, positionals, env }) {
      const [file] = positionals;
      if (file === undefined) throw new UsageError('FILE is required');
      const format = formatOf(file, optionalString(values, 'format'));
      const map = mapRecord(values);
      const rejectsFile = optionalString(values, 'rejects');
      const { size } = await fileSize(file);
      const input = createReadStream(file, { highWaterMark: 256 * 1024 });
      // Opened up front so a bad path fails before anything is imported.
      const rejects = rejectsFile !== undefined ? (await open(rejectsFile, 'w')).createWriteStream() : undefined;
      const rejectsDone = rejects ? finished(rejects) : undefined;
      rejectsDone?.catch(() => undefined); // awaited in finally; a write error surfaces there
      const progress = progressReporter(size, () => input.bytesRead);
      const options = {
        format,
        map,
        source: optionalString(values, 'source') ?? file,
        charset: optionalString(values, 'charset'),
      };
      let db: Database | undefined;
      try {
        const onProgress = (c: ImportCounts) => progress.update(c);
        const counts =
          (await importViaRunningSystem(env, kind, input, options, { rejects, onProgress })) ??
          (await importer((db = await openDatabase(env)), input, { ...options, rejects, onProgress }));
        process.stdout.write(`${progress.done(counts)}\n`);
        if (counts.rejected > 0 && rejects) process.stderr.write(`rejected rows: ${rejectsFile}\n`);
        return 0;
      } catch (error) {
        // A file that cannot be decoded (ApiError from the shared decoder) is the user's to fix.
        if (error instanceof ImportFormatError || error instanceof ApiError) throw new UsageError(error.message);
        throw error;
      } finally {
        input.destroy();
        rejects?.end();
        await rejectsDone;
        await db?.close();
      }
    },
  };
}

export const importCommand = fileImportCommand(
  'import',
  'Import a contact file (CSV or NDJSON; people with person_id and address history) into the contact store',
  'contacts',
  'contacts',
  importContacts,
  [
    'Rows with the same person_id (within one --source) are one person at several addresses; a newer file of the same --source updates them.',
  ],
);

export const importPropertiesCommand = fileImportCommand(
  'import-properties',
  'Import property records (a county roll or a list export, CSV or NDJSON): owners of record and mailing addresses',
  'records',
  'properties',
  importProperties,
  ['A newer record of the same parcel (same situs address and unit) replaces the older one.'],
);
