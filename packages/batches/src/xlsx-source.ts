/**
 * An Excel workbook (.xlsx) as a record source: the first sheet, or the one chosen by name or
 * 1-based position, its first non-empty row the header. A workbook is a ZIP whose shared
 * strings may come after the sheets, so the upload is written to a temporary file first
 * (never held in memory) and read from there with exceljs's streaming reader, a row at a
 * time. Bounded like every upload: the file and what its central directory says it unpacks
 * to within BATCH_MAX_INFLATED_BYTES and BATCH_MAX_INFLATION_RATIO (a ZIP bomb is refused
 * with 413 before anything is unpacked), every entry then unpacked once and checked against its
 * declared size and CRC-32 (a damaged or crafted file is 400 before the reader sees it), the
 * reader stopped when it makes no progress for 30 s, and the rows, the row length and the
 * columns as for CSV.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { crc32, createInflateRaw } from 'node:zlib';
import ExcelJS from 'exceljs';
import { ApiError } from '@skiptrace/runtime';
import type { ReadOptions, RecordSource, SourceInfo, SourceItem, SourceLimits } from './source-types.ts';

/** Unpacked bytes below which the inflation ratio is not judged (as for compressed uploads). */
const RATIO_FLOOR_BYTES = 1024 * 1024;

const notAWorkbook = (why: string) =>
  new ApiError('validation_failed', `the file is not an XLSX workbook (${why}); nothing was stored`);
const tooLarge = (what: string) => new ApiError('payload_too_large', `${what}; nothing was stored`);

interface ZipEntry {
  method: number;
  crc: number;
  packed: number;
  unpacked: number;
  /** Offset of its local header. */
  offset: number;
}

interface ZipTotals {
  entries: ZipEntry[];
  packed: number;
  unpacked: number;
}

/**
 * Reads every entry as its central directory declares it, unpacking it once (bounded by the
 * sizes already judged): an entry that unpacks to more than it declares, does not unpack, or
 * whose CRC-32 differs is refused before exceljs sees the file — a damaged or crafted ZIP
 * must not reach a reader that may wait on it for ever.
 */
async function verifyZip(path: string, size: number, entries: readonly ZipEntry[]): Promise<void> {
  const file = await open(path, 'r');
  try {
    for (const entry of entries) {
      const head = Buffer.alloc(30);
      await file.read(head, 0, 30, entry.offset);
      if (head.readUInt32LE(0) !== 0x04034b50) throw notAWorkbook('a damaged ZIP entry');
      const start = entry.offset + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
      if (start + entry.packed > size) throw notAWorkbook('a damaged ZIP entry');
      if (entry.packed === 0) {
        if (entry.unpacked !== 0) throw notAWorkbook('a damaged ZIP entry');
        continue;
      }
      if (entry.method !== 0 && entry.method !== 8) throw notAWorkbook(`a ZIP compression method ${entry.method}`);
      const packed = createReadStream(path, { start, end: start + entry.packed - 1 });
      const stream = entry.method === 8 ? packed.pipe(createInflateRaw()) : packed;
      packed.on('error', (err) => stream.destroy(err));
      let crc = 0;
      let unpacked = 0;
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          unpacked += chunk.length;
          if (unpacked > entry.unpacked) throw notAWorkbook('a ZIP entry that unpacks to more than it declares');
          crc = crc32(chunk, crc);
        }
      } catch (err) {
        if (err instanceof ApiError) throw err;
        throw notAWorkbook('a ZIP entry that does not unpack');
      } finally {
        packed.destroy();
        stream.destroy();
      }
      if (unpacked !== entry.unpacked || crc >>> 0 !== entry.crc >>> 0) throw notAWorkbook('a damaged ZIP entry');
    }
  } finally {
    await file.close();
  }
}

/** Longest wait for the reader's next row before the workbook is refused as unreadable, ms. */
const STALL_MS = 30_000;

/** The iterator's next item, or a 400 when the reader makes no progress for STALL_MS. */
async function nextWithin<T>(iterator: AsyncIterator<T>): Promise<IteratorResult<T>> {
  const stop = new AbortController();
  try {
    return await Promise.race([
      iterator.next(),
      sleep(STALL_MS, undefined, { signal: stop.signal }).then(() => {
        throw notAWorkbook(`no progress reading it for ${STALL_MS / 1000} s`);
      }),
    ]);
  } finally {
    stop.abort();
  }
}

async function* within<T>(iterable: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = iterable[Symbol.asyncIterator]();
  for (let next = await nextWithin(iterator); !next.done; next = await nextWithin(iterator)) yield next.value;
}

/**
 * The sizes a ZIP's central directory declares (end-of-central-directory record, then each
 * entry's header). ZIP64 is refused: a workbook of a million rows is far below 4 GiB.
 */
async function zipTotals(path: string, size: number): Promise<ZipTotals> {
  const file = await open(path, 'r');
  try {
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLength);
    await file.read(tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw notAWorkbook('no ZIP directory');
    const entries = tail.readUInt16LE(eocd + 10);
    const dirSize = tail.readUInt32LE(eocd + 12);
    const dirOffset = tail.readUInt32LE(eocd + 16);
    if (entries === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) throw notAWorkbook('ZIP64');
    if (dirOffset + dirSize > size) throw notAWorkbook('a damaged ZIP directory');
    const dir = Buffer.alloc(dirSize);
    await file.read(dir, 0, dirSize, dirOffset);
    const totals: ZipTotals = { entries: [], packed: 0, unpacked: 0 };
    for (let at = 0, n = 0; n < entries; n++) {
      if (at + 46 > dirSize || dir.readUInt32LE(at) !== 0x02014b50) throw notAWorkbook('a damaged ZIP directory');
      const entry: ZipEntry = {
        method: dir.readUInt16LE(at + 10),
        crc: dir.readUInt32LE(at + 16),
        packed: dir.readUInt32LE(at + 20),
        unpacked: dir.readUInt32LE(at + 24),
        offset: dir.readUInt32LE(at + 42),
      };
      totals.entries.push(entry);
      totals.packed += entry.packed;
      totals.unpacked += entry.unpacked;
      at += 46 + dir.readUInt16LE(at + 28) + dir.readUInt16LE(at + 30) + dir.readUInt16LE(at + 32);
    }
    return totals;
  } finally {
    await file.close();
  }
}

/** A cell as text: rich text joined, a hyperlink's text, a formula's result, a date as ISO 8601 (date only at midnight). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: string };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
    if (v.text !== undefined) return cellText(v.text);
    if ('result' in v) return cellText(v.result);
    if (v.error !== undefined) return '';
  }
  return String(value);
}

/** A row's cells (exceljs numbers them from 1; gaps are empty cells). */
function rowCells(values: unknown): string[] {
  const list = Array.isArray(values) ? values : Object.values(values as object);
  const cells: string[] = [];
  for (let i = 1; i < list.length; i++) cells.push(cellText(list[i]).trim());
  while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
  return cells;
}

export function xlsxSource(stream: Readable, limits: SourceLimits, options: ReadOptions = {}): RecordSource {
  const columns: string[] = [];
  const info: SourceInfo = { sheets: [] };
  const maxBytes = limits.maxInflatedBytes ?? 1024 ** 3;
  const maxRatio = limits.maxInflationRatio ?? 200;
  async function* items(): AsyncGenerator<SourceItem> {
    const dir = await mkdtemp(join(tmpdir(), 'skiptrace-xlsx-'));
    try {
      const path = join(dir, 'upload.xlsx');
      let size = 0;
      await pipeline(
        stream,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            size += chunk.length;
            if (size > maxBytes)
              throw tooLarge(`the workbook is larger than ${maxBytes} bytes (BATCH_MAX_INFLATED_BYTES)`);
            yield chunk;
          }
        },
        createWriteStream(path),
      );
      if (size === 0) return;
      const totals = await zipTotals(path, size);
      if (totals.unpacked > maxBytes)
        throw tooLarge(`the workbook unpacks to more than ${maxBytes} bytes (BATCH_MAX_INFLATED_BYTES)`);
      if (totals.unpacked > RATIO_FLOOR_BYTES && totals.unpacked > size * maxRatio)
        throw tooLarge(
          `the workbook unpacks more than ${maxRatio}-fold (BATCH_MAX_INFLATION_RATIO): refused as a decompression bomb`,
        );
      await verifyZip(path, size, totals.entries);
      const wanted = options.sheet?.trim();
      const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
        worksheets: 'emit',
        sharedStrings: 'cache',
        hyperlinks: 'ignore',
        styles: 'ignore',
        entries: 'ignore',
      });
      let position = 0;
      let found = false;
      try {
        for await (const sheet of within(reader)) {
          position++;
          const name = (sheet as unknown as { name?: string }).name ?? `Sheet${position}`;
          info.sheets!.push(name);
          const chosen =
            wanted === undefined || wanted === '' ? position === 1 : wanted === name || wanted === String(position);
          if (!chosen) {
            // Read past it (the ZIP is read in order); its rows are not kept.
            for await (const _ of within(sheet)) void _;
            continue;
          }
          found = true;
          info.sheet = name;
          let header = true;
          let row = 0;
          for await (const r of within(sheet)) {
            const cells = rowCells((r as { values: unknown }).values);
            if (cells.length === 0) continue;
            if (cells.reduce((n, c) => n + Buffer.byteLength(c), cells.length) > limits.maxRowBytes) {
              throw tooLarge(
                `${header ? 'the header row' : `row ${row + 1}`} is longer than ${limits.maxRowBytes} bytes (BATCH_MAX_ROW_BYTES)`,
              );
            }
            if (header) {
              if (cells.length > limits.maxColumns)
                throw new ApiError(
                  'validation_failed',
                  `a batch may carry at most ${limits.maxColumns} columns; this sheet has more; nothing was stored`,
                );
              columns.push(...cells);
              header = false;
              continue;
            }
            row++;
            yield { cells: cells.length > columns.length ? cells.slice(0, Math.max(columns.length, 1)) : cells };
          }
          break;
        }
      } catch (err) {
        if (err instanceof ApiError) throw err;
        throw notAWorkbook(String((err as Error).message ?? err).slice(0, 200));
      }
      if (!found && wanted) {
        throw new ApiError(
          'invalid_parameter',
          `the workbook has no sheet "${wanted.slice(0, 100)}"${info.sheets!.length ? ` (its sheets: ${info.sheets!.join(', ')})` : ''}`,
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return { columns, items: items(), info };
}
