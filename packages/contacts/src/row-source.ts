/**
 * Normalised contact rows as COPY text, pulled in batches by COPY. Records are normalised
 * one input chunk (a few thousand rows) at a time into COPY lines, and a batch hands out
 * those lines joined into one string per input chunk: one await per chunk, not per row
 * (a per-row await and a second, generic encoding pass cost about 3 µs a row).
 */
import { encodeCopyValue } from '@skiptrace/storage';
import type { RawRecord } from './contact-readers.ts';
import { toContactLine } from './contact-row.ts';

export interface RowSource {
  /** True once the records are used up and the last batch has been handed out. */
  readonly exhausted: boolean;
  /**
   * The next `size` rows (fewer at the end) as chunks of COPY text, produced as the
   * consumer pulls them.
   */
  batch(size: number): AsyncIterable<string>;
  /** Stops reading the input (closes the file). */
  close(): Promise<void>;
}

/** Called with the rejected records of each chunk: `line,reason` lines. */
export type RejectSink = (rejected: { line: number; reason: string }[]) => Promise<void> | void;

export function rowSource(
  records: AsyncIterator<RawRecord[]>,
  label: string,
  onRead: (read: number) => void,
  onRejected: RejectSink,
): RowSource {
  const source = { label, copy: encodeCopyValue(label) };
  let lines: string[] = [];
  let index = 0;
  let exhausted = false;

  /** Normalises chunks until one yields a row; false at the end of the input. */
  async function refill(): Promise<boolean> {
    while (index >= lines.length) {
      const next = await records.next();
      if (next.done) return false;
      const rejected: { line: number; reason: string }[] = [];
      lines = [];
      index = 0;
      for (const record of next.value) {
        const row = 'error' in record ? { reason: record.error } : toContactLine(record.contact, source);
        if (typeof row === 'string') lines.push(row);
        else rejected.push({ line: record.line, reason: row.reason });
      }
      let read = 0;
      for (const record of next.value) if (!('more' in record)) read++;
      onRead(read);
      if (rejected.length > 0) await onRejected(rejected);
    }
    return true;
  }

  const done: IteratorResult<string> = { value: undefined, done: true };
  return {
    get exhausted() {
      return exhausted;
    },
    batch(size) {
      let left = size;
      const iterator: AsyncIterator<string> = {
        async next() {
          if (left <= 0 || exhausted) return done;
          if (index >= lines.length && !(await refill())) {
            exhausted = true;
            return done;
          }
          const end = Math.min(lines.length, index + left);
          const text = index === 0 && end === lines.length ? lines.join('') : lines.slice(index, end).join('');
          left -= end - index;
          index = end;
          return { value: text, done: false };
        },
      };
      return { [Symbol.asyncIterator]: () => iterator };
    },
    async close() {
      await records.return?.(undefined);
    },
  };
}
