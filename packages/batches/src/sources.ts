/**
 * Streaming readers for the three upload formats. Each yields one item per input row as
 * soon as it is complete, so the body is never held whole: memory is bounded by one row
 * (at most maxRowBytes) plus the stream buffers. Values are laid out by column index in a
 * shared, growing `columns` list (CSV: the header; JSON: keys in order of first appearance),
 * at most maxColumns long: every stored row has a slot per column, so without a bound an
 * upload whose every line brings new keys grows quadratically (#22 defect 3).
 */
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import {
  ApiError,
  decodeText,
  JSON_MAX_DEPTH,
  jsonTextProblem,
  storableText,
  tooDeep,
  type EncodingChoice,
} from '@skiptrace/runtime';
import { sniffDelimiter } from './delimiter.ts';
import type { Format, ReadOptions, RecordSource, SourceInfo, SourceItem, SourceLimits } from './source-types.ts';
import { xlsxSource } from './xlsx-source.ts';

export type { Format, ReadOptions, RecordSource, SourceInfo, SourceItem, SourceLimits } from './source-types.ts';

/** "row 12 is longer than 65536 bytes": names the data row (1 = the first after the header). */
export const tooLong = (max: number, row?: number) =>
  new ApiError(
    'payload_too_large',
    `${row === undefined ? 'a row' : row === 0 ? 'the header row' : `row ${row}`} is longer than ${max} bytes (BATCH_MAX_ROW_BYTES); nothing was stored`,
  );
/**
 * A row past the JSON limits (JSON_LIMITS: nesting, string length, keys, elements) fails the
 * upload before it is parsed, naming the limit (nothing is stored).
 */
const rowRefused = (problem: string) => new ApiError('validation_failed', `${problem}; nothing was stored`);
const nestedTooDeep = () => rowRefused(tooDeep('a row'));
/** Throws when a row's text breaks a JSON limit. */
function checkRowText(text: string): void {
  const problem = jsonTextProblem(text, 'a row');
  if (problem) throw rowRefused(problem);
}

export const tooManyColumns = (max: number) =>
  new ApiError(
    'validation_failed',
    `a batch may carry at most ${max} columns (CSV header fields, or distinct keys across JSON rows); this upload has more; nothing was stored`,
  );

/** The shared columns of a JSON or NDJSON upload, and each object's cells laid out in them. */
function objectLayout(maxColumns: number) {
  const columns: string[] = [];
  const index = new Map<string, number>();
  /** Lays the keys of a flat object out in the shared columns list. */
  function cellsOf(value: unknown, text: string): SourceItem {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { invalid: 'row must be a JSON object', text };
    }
    const cells: unknown[] = [];
    for (const [key, v] of Object.entries(value)) {
      let i = index.get(key);
      if (i === undefined) {
        if (columns.length >= maxColumns) throw tooManyColumns(maxColumns);
        i = columns.length;
        columns.push(key);
        index.set(key, i);
      }
      cells[i] = v;
    }
    return { cells };
  }
  return { columns, cellsOf };
}

/**
 * Text handed to a parser at once, characters. A parser takes what it is given in one
 * synchronous pass: a 64 KiB body chunk is ~1,000 CSV rows, 1.5–7 ms of csv-parse on this
 * machine, during which the gateway's event loop (and every synchronous request on it)
 * waits. Pieces of 16 KiB keep a pass near the ingest loop's slices (SLICE_MS).
 */
const PARSE_PIECE = 16 * 1024;

async function* decode(stream: Readable, charset: string | undefined, info: SourceInfo): AsyncGenerator<string> {
  const onEncoding = (choice: EncodingChoice) => (info.encoding = choice);
  for await (const text of decodeText(stream as AsyncIterable<Uint8Array>, {
    charset,
    what: 'the upload',
    onEncoding,
  })) {
    let from = 0;
    while (text.length - from > PARSE_PIECE) {
      let to = from + PARSE_PIECE;
      // Never between the two halves of a surrogate pair (csv-parse encodes each piece to UTF-8).
      const last = text.charCodeAt(to - 1);
      if (last >= 0xd800 && last <= 0xdbff) to++;
      yield text.slice(from, to);
      from = to;
    }
    yield from === 0 ? text : text.slice(from);
  }
}

/** Text read before the delimiter is sniffed: the first lines, at most this many characters. */
const SNIFF_CHARS = 64 * 1024;
const SNIFF_LINES = 20;

export function csvSource(
  stream: Readable,
  { maxRowBytes, maxColumns }: SourceLimits,
  options: ReadOptions = {},
): RecordSource {
  const columns: string[] = [];
  const info: SourceInfo = {};
  async function* items(): AsyncGenerator<SourceItem> {
    const texts = decode(stream, options.charset, info);
    // The first lines, to sniff the delimiter from (unless it was given).
    let head = '';
    let ended = false;
    while (options.delimiter === undefined && head.length < SNIFF_CHARS && lineCount(head) < SNIFF_LINES) {
      const next = await texts.next();
      if (next.done) {
        ended = true;
        break;
      }
      head += next.value;
    }
    info.delimiter = options.delimiter ?? sniffDelimiter(head);
    const parser = parse({
      bom: true,
      delimiter: info.delimiter,
      skip_empty_lines: true,
      relax_column_count: true,
      max_record_size: maxRowBytes,
    });
    async function* all(): AsyncGenerator<string> {
      if (head !== '') yield head;
      if (!ended) yield* texts;
    }
    const text = Readable.from(all(), { objectMode: false });
    text.on('error', (err) => parser.destroy(err));
    text.pipe(parser);
    let records = 0;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        records++;
        if (records === 1) {
          if (record.length > maxColumns) throw tooManyColumns(maxColumns);
          columns.push(...record.map((name) => name.trim()));
          continue;
        }
        yield { cells: record };
      }
    } catch (err) {
      if (err instanceof CsvError) {
        if (err.code === 'CSV_MAX_RECORD_SIZE') {
          // The records parsed before it, the header among them: the data row it would have been.
          throw tooLong(maxRowBytes, Number((err as CsvError & { records?: number }).records ?? records));
        }
        throw new ApiError('validation_failed', `malformed CSV: ${storableText(err.message)}`);
      }
      throw err;
    } finally {
      text.unpipe(parser);
      text.destroy();
    }
  }
  return { columns, items: items(), info };
}

/** Line breaks in `text` (quotes not considered: only to know when enough was read). */
function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export function ndjsonSource(
  stream: Readable,
  { maxRowBytes, maxColumns }: SourceLimits,
  options: ReadOptions = {},
): RecordSource {
  const { columns, cellsOf } = objectLayout(maxColumns);
  const info: SourceInfo = {};
  let rows = 0;
  function item(line: string): SourceItem | undefined {
    const text = line.trim();
    if (text === '') return undefined;
    checkRowText(text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { invalid: 'line is not valid JSON', text };
    }
    return cellsOf(value, text);
  }
  async function* items(): AsyncGenerator<SourceItem> {
    let buffer = '';
    for await (const text of decode(stream, options.charset, info)) {
      buffer += text;
      let start = 0;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n', start)) {
        const out = item(buffer.slice(start, nl));
        start = nl + 1;
        if (out) {
          rows++;
          yield out;
        }
      }
      buffer = buffer.slice(start);
      if (buffer.length > maxRowBytes) throw tooLong(maxRowBytes, rows + 1);
    }
    const out = item(buffer);
    if (out) yield out;
  }
  return { columns, items: items(), info };
}

/**
 * A JSON array of flat objects, read element by element: a small scanner tracks string
 * and nesting state and hands each complete top-level element to JSON.parse.
 */
export function jsonArraySource(
  stream: Readable,
  { maxRowBytes, maxColumns }: SourceLimits,
  options: ReadOptions = {},
): RecordSource {
  const { columns, cellsOf } = objectLayout(maxColumns);
  const info: SourceInfo = {};
  let rows = 0;
  const malformed = (why: string) => new ApiError('invalid_json', `body is not a JSON array: ${why}`);
  const isSpace = (c: string) => c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\ufeff';

  async function* items(): AsyncGenerator<SourceItem> {
    // before '[' → expecting an element or ']' → inside an element → expecting ',' or ']' → after ']'
    let state: 'start' | 'value' | 'element' | 'comma' | 'end' = 'start';
    let depth = 0;
    let inString = false;
    let escaped = false;
    let element = '';
    let empty = true;
    for await (const text of decode(stream, options.charset, info)) {
      const done: string[] = [];
      let from = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text[i]!;
        if (state === 'element') {
          let endAt = -1;
          if (inString) {
            if (escaped) escaped = false;
            else if (c === '\\') escaped = true;
            else if (c === '"') {
              inString = false;
              if (depth === 0) endAt = i + 1;
            }
          } else if (c === '"') inString = true;
          else if (c === '{' || c === '[') {
            if (++depth > JSON_MAX_DEPTH) throw nestedTooDeep();
          } else if (depth > 0 && (c === '}' || c === ']')) {
            if (--depth === 0) endAt = i + 1;
          } else if (depth === 0 && (c === ',' || c === ']' || isSpace(c))) {
            endAt = i;
            i--; // read the delimiter again as a separator
          }
          if (endAt >= 0) {
            done.push(element + text.slice(from, endAt));
            element = '';
            state = 'comma';
          }
          continue;
        }
        if (isSpace(c)) continue;
        if (state === 'start') {
          if (c !== '[') throw malformed('it does not start with [');
          state = 'value';
        } else if (state === 'value') {
          if (c === ']' && empty) state = 'end';
          else if (c === ',' || c === ']') throw malformed(`unexpected "${c}"`);
          else {
            state = 'element';
            empty = false;
            from = i;
            depth = 0;
            i--; // the first character is scanned as part of the element
          }
        } else if (state === 'comma') {
          if (c === ',') state = 'value';
          else if (c === ']') state = 'end';
          else throw malformed(`unexpected "${c}" between elements`);
        } else throw malformed('text after the closing ]');
      }
      if (state === 'element') {
        element += text.slice(from);
        if (element.length > maxRowBytes) throw tooLong(maxRowBytes, rows + done.length + 1);
      }
      for (const raw of done) {
        checkRowText(raw);
        let value: unknown;
        try {
          value = JSON.parse(raw);
        } catch {
          throw malformed('an element is not valid JSON');
        }
        rows++;
        yield cellsOf(value, raw);
      }
    }
    if ((state as string) !== 'end') throw malformed('it ends before the closing ]');
  }
  return { columns, items: items(), info };
}

export function sourceFor(
  format: Format,
  stream: Readable,
  limits: SourceLimits,
  options: ReadOptions = {},
): RecordSource {
  if (format === 'csv') return csvSource(stream, limits, options);
  if (format === 'ndjson') return ndjsonSource(stream, limits, options);
  if (format === 'xlsx') return xlsxSource(stream, limits, options);
  return jsonArraySource(stream, limits, options);
}
