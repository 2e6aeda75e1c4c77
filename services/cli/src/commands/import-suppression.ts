/**
 * `pnpm skiptrace import-suppression --kind dnc|litigator FILE`: loads a Do-Not-Call
 * registry download or a litigator list; the worker flags matching phones from then on.
 */
import { createReadStream } from 'node:fs';
import { importSuppression } from '@skiptrace/contacts';
import type { Command } from '../command.ts';
import { ApiError } from '@skiptrace/runtime';
import { optionalString, requireString, UsageError } from '../command.ts';
import type { Database } from '@skiptrace/storage';
import type { ImportCounts } from '@skiptrace/contacts';
import { fileSize, importViaRunningSystem, openDatabase, progressReporter } from './import.ts';

export const importSuppressionCommand: Command = {
  name: 'import-suppression',
  summary: 'Import a Do-Not-Call or litigator phone list',
  args: 'FILE',
  options: {
    kind: { type: 'string', value: 'dnc|litigator', description: 'which list FILE is (required)' },
    charset: { type: 'string', value: 'NAME', description: 'text encoding (default: BOM, UTF-16 guess, else UTF-8)' },
  },
  async run({ values, positionals, env }) {
    const kind = requireString(values, 'kind');
    if (kind !== 'dnc' && kind !== 'litigator') throw new UsageError('--kind must be dnc or litigator');
    const [file] = positionals;
    if (file === undefined) throw new UsageError('FILE is required');
    const { size } = await fileSize(file);
    const input = createReadStream(file, { highWaterMark: 256 * 1024 });
    const progress = progressReporter(size, () => input.bytesRead);
    const charset = optionalString(values, 'charset');
    let db: Database | undefined;
    try {
      const onProgress = (c: ImportCounts) => progress.update(c);
      const counts =
        (await importViaRunningSystem(env, 'suppression', input, { kind, charset }, { onProgress })) ??
        (await importSuppression((db = await openDatabase(env)), input, { kind, charset, onProgress }));
      process.stdout.write(`${kind}: ${progress.done(counts)}\n`);
      return 0;
    } catch (error) {
      if (error instanceof ApiError) throw new UsageError(error.message);
      throw error;
    } finally {
      input.destroy();
      await db?.close();
    }
  },
};
