/**
 * Readers for the two contact file formats. Each yields, per input chunk, the records it
 * found as raw (trimmed, not yet normalised) contacts or as errors with their line number.
 */
import { assertUsable, resolveColumns } from './columns.ts';
import type { AddressField, ColumnLayout } from './columns.ts';
import { csvRecords } from './csv-records.ts';
import { seenEndOf } from './seen-dates.ts';
import { textLines } from './text-chunks.ts';

export interface RawPhone {
  number: string;
  type: string;
  /** The phone's own dates as written ('' when not given). */
  first_seen?: string;
  last_seen?: string;
}

/** A contact as read: its address and name fields (@skiptrace/contracts) and the person's, trimmed; '' when not given. */
export type RawContact = Record<AddressField, string> & {
  phones: RawPhone[];
  emails: string[];
};

/**
 * One row to store, or why a record cannot be read. `more` marks the second and later
 * rows of one input record (a person line of NDJSON with several addresses), which are
 * not counted again as records read.
 */
export type RawRecord = { line: number; contact: RawContact; more?: true } | { line: number; error: string };

function at(fields: readonly string[], index: number | undefined): string {
  return index === undefined ? '' : (fields[index] ?? '').trim();
}

/** Picks the canonical fields out of one row laid out as layout says. */
export function extractContact(fields: readonly string[], layout: ColumnLayout): RawContact {
  const { fields: f } = layout;
  const phones: RawPhone[] = [];
  for (const column of layout.phones) {
    const number = at(fields, column.number);
    if (number === '') continue;
    const phone: RawPhone = { number, type: at(fields, column.type) || column.impliedType || '' };
    if (column.firstSeen !== undefined) phone.first_seen = at(fields, column.firstSeen);
    if (column.lastSeen !== undefined) phone.last_seen = at(fields, column.lastSeen);
    phones.push(phone);
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
    person_id: at(fields, f.person_id),
    middle_name: at(fields, f.middle_name),
    suffix: at(fields, f.suffix),
    birth_year: at(fields, f.birth_year),
    birth_date: at(fields, f.birth_date),
    deceased: at(fields, f.deceased),
    first_seen: at(fields, f.first_seen),
    last_seen: at(fields, f.last_seen),
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

const text = cellText;

/**
 * NDJSON: one object per line; keys resolve like CSV headers (layout cached per key set).
 * The person form nests `addresses: [{street_address, city, state, zip_code, first_seen,
 * last_seen}]` (and `phones`, `emails`): one row per address, the phones and e-mails on
 * the row of the address seen last (the current one), where a trace of the person reads
 * them with the rest of the person's rows.
 */
export async function* ndjsonContacts(
  chunks: AsyncIterable<string>,
  map: Record<string, string> | undefined,
): AsyncGenerator<RawRecord[]> {
  const layoutOf = layoutCache((keys) => resolveColumns(keys, map));
  const extract = (object: Record<string, unknown>): RawContact => {
    const keys = Object.keys(object);
    return extractContact(
      keys.map((key) => text(object[key])),
      layoutOf(keys),
    );
  };
  for await (const lines of textLines(chunks)) {
    const out: RawRecord[] = [];
    for (const { line, text: json } of lines) {
      const parsed = jsonObjectOf(json);
      if (parsed === undefined) continue;
      if ('error' in parsed) {
        out.push({ line, error: parsed.error });
        continue;
      }
      const { object } = parsed;
      const contact = extract(object);
      addArrays(contact, object);
      if (!Array.isArray(object.addresses)) {
        out.push({ line, contact });
        continue;
      }
      const places = (object.addresses as unknown[]).filter(
        (a): a is Record<string, unknown> => typeof a === 'object' && a !== null && !Array.isArray(a),
      );
      if (places.length === 0) {
        out.push({ line, error: 'addresses holds no address object' });
        continue;
      }
      // A row per address: the person's fields, the address's own six (as extract would
      // read them, without building the rest), no phones or e-mails but on the current one.
      const rows = places.map((place): RawContact => {
        const keys = Object.keys(place);
        const f = layoutOf(keys).fields;
        const field = (index: number | undefined): string =>
          index === undefined ? '' : text(place[keys[index]!]).trim();
        return {
          street_address: field(f.street_address),
          city: field(f.city),
          state: field(f.state),
          zip_code: field(f.zip_code),
          first_name: contact.first_name,
          last_name: contact.last_name,
          person_id: contact.person_id,
          middle_name: contact.middle_name,
          suffix: contact.suffix,
          birth_year: contact.birth_year,
          birth_date: contact.birth_date,
          deceased: contact.deceased,
          first_seen: field(f.first_seen),
          last_seen: field(f.last_seen),
          phones: [],
          emails: [],
        };
      });
      // The first of the rows seen last ('' and unreadable dates are the earliest; each row's
      // end of period read once).
      let current = rows[0]!;
      let currentEnd = seenEndOf(current.last_seen);
      for (let i = 1; i < rows.length; i++) {
        const end = seenEndOf(rows[i]!.last_seen);
        if (end > currentEnd) {
          current = rows[i]!;
          currentEnd = end;
        }
      }
      current.phones = contact.phones;
      current.emails = contact.emails;
      rows.forEach((row, i) => out.push(i === 0 ? { line, contact: row } : { line, contact: row, more: true }));
    }
    if (out.length > 0) yield out;
  }
}

/** One NDJSON line's object, or why it is not one; undefined for a blank line. */
export function jsonObjectOf(line: string): { object: Record<string, unknown> } | { error: string } | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: 'invalid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'not a JSON object' };
  return { object: value as Record<string, unknown> };
}

/** A JSON value as cell text: strings and numbers as written, null and nested values empty. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? '' : String(value);
}

/** Most NDJSON key sets remembered at once. */
const MAX_LAYOUTS = 1_000;

/**
 * A layout resolver remembering one layout per key set. A key set per line is bounded by
 * the line; the cache by a count (a hostile file bringing new keys on every line must not
 * grow it without end).
 */
export function layoutCache<L>(resolve: (keys: string[]) => L): (keys: string[]) => L {
  const layouts = new Map<string, L>();
  // The key sets met last (a person line and its address objects alternate): compared key
  // by key (JSON.parse interns keys, so mostly pointer compares) before building a signature.
  const recent: { keys: string[]; layout: L }[] = [];
  const same = (a: string[], b: string[]): boolean => {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  };
  return (keys) => {
    for (const entry of recent) if (same(entry.keys, keys)) return entry.layout;
    const signature = keys.join('\n');
    let layout = layouts.get(signature);
    if (layout === undefined) {
      if (layouts.size >= MAX_LAYOUTS) layouts.clear();
      layout = resolve(keys);
      layouts.set(signature, layout);
    }
    if (recent.length >= 4) recent.pop();
    recent.unshift({ keys, layout });
    return layout;
  };
}

/** The natural JSON shape: `phones: ["…" | {number, type, first_seen, last_seen}]`, `emails: ["…"]`. */
function addArrays(contact: RawContact, object: Record<string, unknown>): void {
  if (Array.isArray(object.phones)) {
    for (const phone of object.phones as unknown[]) {
      if (typeof phone === 'string' || typeof phone === 'number')
        contact.phones.push({ number: String(phone), type: '' });
      else if (phone && typeof phone === 'object') {
        const { number, type, first_seen, last_seen } = phone as Record<string, unknown>;
        if (text(number) === '') continue;
        const raw: RawPhone = { number: text(number), type: text(type) };
        if (text(first_seen) !== '') raw.first_seen = text(first_seen);
        if (text(last_seen) !== '') raw.last_seen = text(last_seen);
        contact.phones.push(raw);
      }
    }
  }
  if (Array.isArray(object.emails)) {
    for (const email of object.emails as unknown[])
      if (typeof email === 'string' && email.trim()) contact.emails.push(email.trim());
  }
}
