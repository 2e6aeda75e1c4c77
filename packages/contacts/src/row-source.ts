/**
 * Normalised contact rows, pulled in batches by COPY. Records are normalised one input
 * chunk (a few thousand rows) at a time and handed out from an array by a hand-written
 * iterator: an async-generator chain here cost about 3 µs a row, a third of the import's
 * CPU time.
 */
import type { RawRecord } from './contact-readers.ts';
import { toContactRow } from './contact-row.ts';

export interface RowSource {
  /** True once the records are used up and the last batch has been handed out. */
  readonly exhausted: boolean;
  /** The next `size` rows (fewer at the end), produced as the consumer pulls them. */
  batch(size: number): AsyncIterable<unknown[]>;
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
  let rows: unknown[][] = [];
  let index = 0;
  let exhausted = false;

  /** Normalises chunks until one yields a row; false at the end of the input. */
  async function refill(): Promise<boolean> {
    while (index >= rows.length) {
      const next = await records.next();
      if (next.done) return false;
      const rejected: { line: number; reason: string }[] = [];
      rows = [];
      index = 0;
      for (const record of next.value) {
        const row = 'error' in record ? record.error : toContactRow(record.contact, label);
        if (typeof row === 'string') rejected.push({ line: record.line, reason: row });
        else rows.push(row);
      }
      onRead(next.value.length);
      if (rejected.length > 0) await onRejected(rejected);
    }
    return true;
  }

  const done: IteratorResult<unknown[]> = { value: undefined, done: true };
  return {
    get exhausted() {
      return exhausted;
    },
    batch(size) {
      let left = size;
      const iterator: AsyncIterator<unknown[]> = {
        async next() {
          if (left <= 0 || exhausted) return done;
          if (index >= rows.length && !(await refill())) {
            exhausted = true;
            return done;
          }
          left--;
          return { value: rows[index++]!, done: false };
        },
      };
      return { [Symbol.asyncIterator]: () => iterator };
    },
    async close() {
      await records.return?.(undefined);
    },
  };
}
