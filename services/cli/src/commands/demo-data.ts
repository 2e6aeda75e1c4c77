/**
 * `pnpm skiptrace demo-data --rows N --seed S [--out FILE] [--dnc FILE] [--litigator FILE]`:
 * a deterministic synthetic contact file in the canonical CSV format (fictional NPA-555-01XX
 * phones, example.com e-mails), ready for `pnpm skiptrace import`, and the demo's Do-Not-Call
 * and litigator lists (about 1 number in 10 and 1 in 100, @skiptrace/demo suppression.ts),
 * ready for `pnpm skiptrace import-suppression`. Prints on stderr an address that matches.
 */
import { writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { CONTACT_COLUMNS, demoQueryFor, demoSuppressionLists, generateContacts } from '@skiptrace/demo';
import type { ContactRow } from '@skiptrace/demo';
import { csvCell, csvPhoneCell } from '@skiptrace/runtime';
import type { Command } from '../command.ts';
import { optionalString, UsageError, type Values } from '../command.ts';

/** Characters handed to the output per write. */
const CHUNK_CHARS = 64 * 1024;

/** Phone columns keep their E.164 `+`; every other cell is neutralised as in exports. */
const csvField = (column: string, value: string | null): string =>
  /^phone_\d+$/.test(column) ? csvPhoneCell(value) : csvCell(value);

function integerFlag(values: Values, name: string, fallback: number, min: number): number {
  const raw = optionalString(values, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`--${name} must be an integer ≥ ${min}`);
  }
  return value;
}

async function writeCsv(out: Writable, rows: Iterable<ContactRow>): Promise<void> {
  let chunk = `${CONTACT_COLUMNS.join(',')}\n`;
  for (const row of rows) {
    chunk += `${CONTACT_COLUMNS.map((column) => csvField(column, row[column])).join(',')}\n`;
    if (chunk.length >= CHUNK_CHARS) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.write(chunk);
}

export const demoDataCommand: Command = {
  name: 'demo-data',
  summary: 'Write a synthetic contact file (canonical CSV, fictional phones)',
  options: {
    rows: { type: 'string', value: 'N', description: 'how many contacts (default 1000)' },
    seed: { type: 'string', value: 'S', description: 'random seed: same seed, same file (default 42)' },
    out: { type: 'string', short: 'o', value: 'FILE', description: 'where to write (default stdout)' },
    dnc: {
      type: 'string',
      value: 'FILE',
      description: "also write the demo's Do-Not-Call list (import-suppression --kind dnc FILE)",
    },
    litigator: {
      type: 'string',
      value: 'FILE',
      description: "also write the demo's litigator list (import-suppression --kind litigator FILE)",
    },
  },
  async run({ values, positionals }) {
    if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const rows = integerFlag(values, 'rows', 1000, 1);
    const seed = integerFlag(values, 'seed', 42, 0);
    const outFile = optionalString(values, 'out');
    const out = outFile !== undefined ? createWriteStream(outFile) : process.stdout;
    const done = out === process.stdout ? undefined : finished(out);
    done?.catch(() => undefined); // awaited below; keeps an early open error from going unhandled
    await writeCsv(out, generateContacts({ rows, seed }));
    if (done) {
      out.end();
      await done;
    }
    const lists = demoSuppressionLists();
    for (const kind of ['dnc', 'litigator'] as const) {
      const file = optionalString(values, kind);
      if (file === undefined) continue;
      await writeFile(file, `${lists[kind].join('\n')}\n`);
      process.stderr.write(`wrote the demo ${kind} list (${lists[kind].length} numbers) to ${file}\n`);
    }
    const [first] = generateContacts({ rows: 1, seed });
    if (first) {
      const q = demoQueryFor(first);
      process.stderr.write(
        `wrote ${rows} rows${outFile !== undefined ? ` to ${outFile}` : ''}; after importing, this matches:\n` +
          `  ${JSON.stringify(q)}\n`,
      );
    }
    return 0;
  },
};
