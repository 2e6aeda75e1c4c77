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

function escapeText(text: string): string {
  // An empty value (most of a roll's optional columns) needs no RegExp test.
  return text.length !== 0 && SPECIAL.test(text) ? text.replace(SPECIAL_GLOBAL, (c) => ESCAPES[c] ?? c) : text;
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
