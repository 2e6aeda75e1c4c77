/**
 * Reads the start of a chosen file (never all of it: files reach a million rows) and
 * returns its columns and first rows for the mapping step. CSV follows RFC 4180 (quoted
 * fields, doubled quotes, CRLF); NDJSON is one object per line; JSON is an array of
 * objects, scanned incrementally for its first elements.
 */
/** The upload formats the batch API takes. */
export type UploadFormat = 'csv' | 'ndjson' | 'json';

export interface FilePreview {
  format: UploadFormat;
  columns: string[];
  rows: string[][];
}

const HEAD_BYTES = 256 * 1024;
export const PREVIEW_ROWS = 5;

export function formatOf(file: File): UploadFormat {
  const name = file.name.toLowerCase();
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return 'ndjson';
  if (name.endsWith('.json')) return 'json';
  return 'csv';
}

/** Complete CSV records of `text` (a trailing partial record is dropped unless `complete`). */
export function parseCsv(text: string, maxRecords: number, complete = false): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length && records.length < maxRecords; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      if (record.length > 1 || record[0] !== '') records.push(record);
      record = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (complete && !quoted && records.length < maxRecords && (field !== '' || record.length)) {
    records.push([...record, field]);
  }
  return records;
}

/** The first `max` complete top-level objects of a JSON array text. */
export function jsonArrayHead(text: string, max: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length && out.length < max; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (c === '{' && depth === 1) start = i;
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (c === '}' && depth === 1 && start >= 0) {
        out.push(JSON.parse(text.slice(start, i + 1)) as Record<string, unknown>);
        start = -1;
      }
    }
  }
  return out;
}

const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Columns of objects: keys in order of first appearance, as the server reads them. */
function fromObjects(format: UploadFormat, objects: Record<string, unknown>[]): FilePreview {
  const columns: string[] = [];
  for (const o of objects) for (const k of Object.keys(o)) if (!columns.includes(k)) columns.push(k);
  return { format, columns, rows: objects.map((o) => columns.map((c) => cell(o[c]))) };
}

export class PreviewError extends Error {
  override name = 'PreviewError';
}

export async function previewFile(file: File): Promise<FilePreview> {
  const format = formatOf(file);
  const text = await file.slice(0, HEAD_BYTES).text();
  const complete = file.size <= HEAD_BYTES;
  const body = text.replace(/^\uFEFF/, '');
  if (format === 'csv') {
    const [header, ...rows] = parseCsv(body, PREVIEW_ROWS + 1, complete);
    if (!header?.length) throw new PreviewError('The file has no header row.');
    return { format, columns: header, rows };
  }
  if (format === 'ndjson') {
    const lines = body.split(/\r?\n/).filter((l) => l.trim() !== '');
    if (!complete) lines.pop();
    const objects = lines.slice(0, PREVIEW_ROWS).map((line, i) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new PreviewError(`Line ${i + 1} is not JSON.`);
      }
    });
    return fromObjects(format, objects);
  }
  if (!body.trimStart().startsWith('[')) throw new PreviewError('A JSON file must hold an array of objects.');
  return fromObjects(format, jsonArrayHead(body, PREVIEW_ROWS));
}
