/**
 * `pnpm skiptrace import-suppression --kind dnc|litigator FILE`: loads a Do-Not-Call
 * registry download or a litigator list; the worker flags matching phones from then on.
 */
import { createReadStream } from 'node:fs';
import { importSuppression } from '@skiptrace/contacts';
import type { Command } from '../command.ts';
import { ApiError } from '@skiptrace/runtime';
import { optionalString, requireString, UsageError } from '../command.ts';
import { fileSize, openDatabase, progressReporter } from './import.ts';

export const importSuppressionCommand: Command = {
  name: 'import-suppression',
  summary: 'Import a Do-Not-Call or litigator phone list',
  args: 'FILE',
  options: {
    kind: { type: 'string', value: 'dnc|litigator', description: 'which list FILE is (required)' },
    charset: { type: 'string', value: 'NAME', description: 'text encoding (default: BOM, UTF-16 guess, else UTF-8)' },
  },
  async run({ values, positionals }) {
    const kind = requireString(values, 'kind');
    if (kind !== 'dnc' && kind !== 'litigator') throw new UsageError('--kind must be dnc or litigator');
    const [file] = positionals;
    if (file === undefined) throw new UsageError('FILE is required');
    const { size } = await fileSize(file);
    const input = createReadStream(file, { highWaterMark: 256 * 1024 });
    const db = await openDatabase();
    const progress = progressReporter(size, () => input.bytesRead);
    try {
      const counts = await importSuppression(db, input, {
        kind,
        charset: optionalString(values, 'charset'),
        onProgress: (c) => progress.update(c),
      });
      process.stdout.write(`${kind}: ${progress.done(counts)}\n`);
      return 0;
    } catch (error) {
      if (error instanceof ApiError) throw new UsageError(error.message);
      throw error;
    } finally {
      input.destroy();
      await db.close();
    }
  },
};
