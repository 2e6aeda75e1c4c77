/**
 * Readers for the two contact file formats. Each yields, per input chunk, the records it
 * found as raw (trimmed, not yet normalised) contacts or as errors with their line number.
 */
import { assertUsable, resolveColumns } from './columns.ts';
import type { ColumnLayout } from './columns.ts';
import { csvRecords } from './csv-records.ts';
import { textLines } from './text-chunks.ts';

export interface RawPhone {
  number: string;
  type: string;
}

export interface RawContact {
  street_address: string;
  city: string;
  state: string;
  zip_code: string;
  first_name: string;
  last_name: string;
  phones: RawPhone[];
  emails: string[];
}

export type RawRecord = { line: number; contact: RawContact } | { line: number; error: string };

function at(fields: readonly string[], index: number | undefined): string {
  return index === undefined ? '' : (fields[index] ?? '').trim();
}

/** Picks the canonical fields out of one row laid out as layout says. */
export function extractContact(fields: readonly string[], layout: ColumnLayout): RawContact {
  const { fields: f } = layout;
  const phones: RawPhone[] = [];
  for (const column of layout.phones) {
    const number = at(fields, column.number);
    if (number !== '') phones.push({ number, type: at(fields, column.type) || column.impliedType || '' });
  }
  const emails: string[] = [];
  for (const index of layout.emails) {
    const email = at(fields, index);
    if (email !== '') emails.push(email);
  }
  return {
    street_address: at(fields, f.street_address),
    city: at(fields, f.city),
    state: at(fields, f.state),
    zip_code: at(fields, f.zip_code),
    first_name: at(fields, f.first_name),
    last_name: at(fields, f.last_name),
    phones,
    emails,
  };
}

export async function* csvContacts(
  chunks: AsyncIterable<string>,
  map: Record<string, string> | undefined,
): AsyncGenerator<RawRecord[]> {
  let layout: ColumnLayout | undefined;
  let width = 0;
  for await (const records of csvRecords(chunks)) {
    const out: RawRecord[] = [];
    for (const record of records) {
      if (layout === undefined) {
        if (record.fields === null) throw new Error(`line ${record.line}: unreadable header (${record.error})`);
        layout = resolveColumns(record.fields, map);
        assertUsable(layout, record.fields);
        width = record.fields.length;
      } else if (record.fields === null) {
        out.push({ line: record.line, error: record.error ?? 'malformed CSV' });
      } else if (record.fields.length > width) {
        out.push({ line: record.line, error: `${record.fields.length} fields, header has ${width}` });
      } else {
        out.push({ line: record.line, contact: extractContact(record.fields, layout) });
      }
    }
    if (out.length > 0) yield out;
  }
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? '' : String(value);
}

/** NDJSON: one object per line; keys resolve like CSV headers (layout cached per key set). */
export async function* ndjsonContacts(
  chunks: AsyncIterable<string>,
  map: Record<string, string> | undefined,
): AsyncGenerator<RawRecord[]> {
  const layouts = new Map<string, ColumnLayout>();
  for await (const lines of textLines(chunks)) {
    const out: RawRecord[] = [];
    for (const { line, text: json } of lines) {
      if (json.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(json);
      } catch {
        out.push({ line, error: 'invalid JSON' });
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        out.push({ line, error: 'not a JSON object' });
        continue;
      }
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object);
      const signature = keys.join('\n');
      let layout = layouts.get(signature);
      if (layout === undefined) {
        layout = resolveColumns(keys, map);
        layouts.set(signature, layout);
      }
      const contact = extractContact(
        keys.map((key) => text(object[key])),
        layout,
      );
      addArrays(contact, object);
      out.push({ line, contact });
    }
    if (out.length > 0) yield out;
  }
}

/** The natural JSON shape: `phones: ["…" | {number, type}]`, `emails: ["…"]`. */
function addArrays(contact: RawContact, object: Record<string, unknown>): void {
  if (Array.isArray(object.phones)) {
    for (const phone of object.phones as unknown[]) {
      if (typeof phone === 'string' || typeof phone === 'number')
        contact.phones.push({ number: String(phone), type: '' });
      else if (phone && typeof phone === 'object') {
        const { number, type } = phone as Record<string, unknown>;
        if (text(number) !== '') contact.phones.push({ number: text(number), type: text(type) });
      }
    }
  }
  if (Array.isArray(object.emails)) {
    for (const email of object.emails as unknown[])
      if (typeof email === 'string' && email.trim()) contact.emails.push(email.trim());
  }
}
