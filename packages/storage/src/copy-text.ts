/**
 * Encoding of rows for `COPY … FROM STDIN` in PostgreSQL's text format, shared by both
 * adapters. Columns are separated by tabs, rows end with a newline, `\N` is NULL and
 * backslash, tab, newline and carriage return inside a value are backslash-escaped.
 */

/** Target size of one chunk handed to the COPY stream (characters ≈ bytes for ASCII). */
export const COPY_CHUNK_SIZE = 64 * 1024;

const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_GLOBAL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** Longer values are searched with SPECIAL; a shorter one's characters are looked at one by one. */
const SHORT_TEXT = 64;

/**
 * Whether the text has a character to escape. Most values are short (a name, a ZIP, a
 * key): a loop over their characters takes half the time of a RegExp test, which a COPY
 * row of twenty columns runs twenty times.
 */
function needsEscape(text: string): boolean {
  if (text.length > SHORT_TEXT) return SPECIAL.test(text);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \\ */ || (c <= 13 && (c === 9 || c === 10 || c === 13))) return true;
  }
  return false;
}

function escapeText(text: string): string {
  return needsEscape(text) ? text.replace(SPECIAL_GLOBAL, (c) => ESCAPES[c] ?? c) : text;
}

/** One value in COPY text form: objects and arrays as JSON, bytes as bytea hex. */
export function encodeCopyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  switch (typeof value) {
    case 'string':
      return escapeText(value);
    case 'number':
    case 'bigint':
      return String(value);
    case 'boolean':
      return value ? 't' : 'f';
    case 'object':
      if (value instanceof Date) return value.toISOString();
      if (value instanceof Uint8Array) return `\\\\x${Buffer.from(value).toString('hex')}`;
      return escapeText(JSON.stringify(value));
    default:
      throw new TypeError(`copyRows: cannot encode a ${typeof value} value`);
  }
}

export function encodeCopyRow(row: readonly unknown[], width: number): string {
  if (row.length !== width) {
    throw new TypeError(`copyRows: row has ${row.length} values, expected ${width}`);
  }
  let line = '';
  for (let i = 0; i < row.length; i++) {
    if (i > 0) line += '\t';
    line += encodeCopyValue(row[i]);
  }
  return `${line}\n`;
}

/** Yields the rows as text chunks of about chunkSize characters each. */
export async function* copyChunks(
  rows: AsyncIterable<unknown[]> | Iterable<unknown[]>,
  width: number,
  chunkSize = COPY_CHUNK_SIZE,
): AsyncGenerator<string> {
  let chunk = '';
  for await (const row of rows) {
    chunk += encodeCopyRow(row, width);
    if (chunk.length >= chunkSize) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk.length > 0) yield chunk;
}

function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Quotes a table name; `schema.table` is quoted part by part. */
export function quoteTable(name: string): string {
  return name.split('.').map(quoteName).join('.');
}

export function copyStatement(table: string, columns: string[], source: 'STDIN' | "'/dev/blob'"): string {
  if (columns.length === 0) throw new TypeError('copyRows: at least one column is required');
  return `COPY ${quoteTable(table)} (${columns.map(quoteName).join(', ')}) FROM ${source}`;
}
