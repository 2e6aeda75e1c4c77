/**
 * One raw contact → its line of COPY text for the staging table (STAGE_COLUMNS order,
 * tab-separated, newline-terminated), or the reason it is rejected. Address, names and
 * phones go through @skiptrace/matching, so stored keys are built exactly as the worker
 * builds its query keys.
 *
 * The line is written directly, not as an array of values for a generic encoder: an
 * import's Node-side cost is per row, and most of a row's values repeat (the household's
 * address, common names), so their COPY text is remembered along with their normal form.
 */
import { hash } from 'node:crypto';
import {
  ADDRESS_MEMO_LIMIT,
  BoundedMemo,
  candidateKeys,
  createAddressStandardizer,
  memoized,
  nameTokens,
} from '@skiptrace/matching';
import type { StandardAddress } from '@skiptrace/matching';
import { encodeCopyValue } from '@skiptrace/storage';
import type { RawContact } from './contact-readers.ts';
import { lineType, toE164 } from './phone-cache.ts';
import { normalizeSeen } from './seen-dates.ts';

/** Why a contact was not stored (a plain string would be ambiguous with a COPY line). */
export interface Rejection {
  reason: string;
}

/** Loose e-mail shape check: something@something.tld, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function quoted(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

function reject(reason: string): Rejection {
  return { reason };
}

/**
 * The row hash covers what identifies a contact (keys, normalised names, phones, e-mails),
 * not the source label or the raw spelling, so the same person at the same door with the
 * same numbers is stored once even when two vendor files spell the address differently.
 */
function rowHash(parts: string): string {
  return hash('sha256', parts, 'base64url').slice(0, 22);
}

/** A standardised address with its COPY text, computed once per distinct address. */
interface AddressText {
  /**
   * Why a row at this address is rejected, or undefined. (Only this is kept of the
   * standardised address: a memo entry lives through young-generation collections, and
   * the whole StandardAddress made each one cost several times more to copy.)
   */
  rejection: Rejection | undefined;
  unitKey: string;
  /** address_key, unit_key (COPY text, tab-separated). */
  keys: string;
  /** street_address, city, state, zip5 (COPY text, tab-separated). */
  fields: string;
}

/** AddressText of a street line, for the city, state and ZIP it was written with. */
interface AddressEntry {
  city: string;
  state: string;
  zip: string;
  text: AddressText;
}

/**
 * Addresses repeat: vendor files list a household's people on consecutive rows, a person
 * file names each dwelling once per person who lived there. So each distinct address is
 * standardised and encoded once: by street line (the entry checks the other three
 * fields, so a street line met with another city is simply standardised again), in a
 * bounded memo; the standardiser itself remembers each city, state and ZIP's normal form.
 */
const addresses = new BoundedMemo<AddressEntry>(ADDRESS_MEMO_LIMIT / 2);
const standardizeCached = createAddressStandardizer(ADDRESS_MEMO_LIMIT, 0);

/** Why rows at this address are rejected (it is the same for every row of the same four raw fields). */
function addressRejection(address: StandardAddress, raw: RawContact): Rejection | undefined {
  if (address.state === null) return reject(`unknown state ${quoted(raw.state)}`);
  if (address.zip5 === null) return reject(`bad zip_code ${quoted(raw.zip_code)}`);
  if (address.number === '') return reject(`no house number in street_address ${quoted(raw.street_address)}`);
  if (address.streetName === '') return reject(`no street name in street_address ${quoted(raw.street_address)}`);
  return undefined;
}

function standardize(raw: RawContact): AddressText {
  const entry = addresses.get(raw.street_address);
  if (entry !== undefined && entry.city === raw.city && entry.state === raw.state && entry.zip === raw.zip_code) {
    return entry.text;
  }
  const address = standardizeCached(raw);
  const keys = candidateKeys(address);
  // The keys matching builds for stored rows: the same code builds the worker's query keys.
  const text: AddressText = {
    rejection: addressRejection(address, raw),
    unitKey: keys.unitKey,
    keys: `${encodeCopyValue(keys.addressKey)}\t${encodeCopyValue(keys.unitKey)}`,
    fields: [address.line, address.city, address.state, address.zip5].map(encodeCopyValue).join('\t'),
  };
  addresses.set(raw.street_address, { city: raw.city, state: raw.state, zip: raw.zip_code, text });
  return text;
}

/** A name as written and normalised (matching's nameTokens, as normalizePerson does), as COPY text. */
interface NameText {
  norm: string;
  /** The name as written, COPY text. */
  rawCopy: string;
  /** The normalised name, COPY text. */
  normCopy: string;
}

/** Names repeat a lot (first names especially); bounded (BoundedMemo). */
const names = new BoundedMemo<NameText>(100_000);

/** The last two names looked up: a person's rows (one per address) repeat the same two. */
let lastFirst: { raw: string; text: NameText } = { raw: '', text: { norm: '', rawCopy: '', normCopy: '' } };
let lastLast = lastFirst;

function nameText(raw: string): NameText {
  return memoized(names, raw, (name) => {
    const norm = nameTokens(name).join(' ');
    return { norm, rawCopy: encodeCopyValue(name), normCopy: encodeCopyValue(norm) };
  });
}

function firstNameText(raw: string): NameText {
  if (raw !== lastFirst.raw) lastFirst = { raw, text: nameText(raw) };
  return lastFirst.text;
}

function lastNameText(raw: string): NameText {
  if (raw !== lastLast.raw) lastLast = { raw, text: nameText(raw) };
  return lastLast.text;
}

/** E.164 numbers already in the row being built (reused: one row at a time). */
const seen: string[] = [];

/** The import's source label, raw and as COPY text (encodeCopyValue). */
export interface RowSourceLabel {
  label: string;
  copy: string;
}

/**
 * The person a row belongs to across addresses: the source label and the person_id,
 * length-prefixed so that no label/id pair can spell another.
 */
export function personKey(source: string, personId: string): string {
  return `${source.length}:${source}|${personId}`;
}

/** personText of a row without any person field. */
const NO_PERSON = ['', '', '', '\\N', 'f', '', ''].join('\t');

const TRUE_WORDS = new Set(['y', 'yes', 'true', 't', '1', 'deceased', 'd']);
const FALSE_WORDS = new Set(['', 'n', 'no', 'false', 'f', '0']);

/** A date column in its stored form, or the rejection naming it. */
function seenField(name: string, value: string): string | Rejection {
  const stored = normalizeSeen(value);
  return stored === null ? reject(`bad ${name} ${quoted(value)} (YYYY, YYYY-MM or YYYY-MM-DD)`) : stored;
}

/** The person columns' COPY text (person_key … last_seen), or why the row is rejected. */
function personText(
  raw: RawContact,
  source: RowSourceLabel,
): { text: string; key: string; first: string; last: string } | Rejection {
  const first = seenField('first_seen', raw.first_seen);
  if (typeof first !== 'string') return first;
  const last = seenField('last_seen', raw.last_seen);
  if (typeof last !== 'string') return last;
  if (first !== '' && last !== '' && first.slice(0, 4) > last.slice(0, 4)) {
    return reject(`first_seen ${quoted(raw.first_seen)} is after last_seen ${quoted(raw.last_seen)}`);
  }
  const person = personPart(raw, source);
  if ('reason' in person) return person;
  return { text: `${person.prefix}\t${first}\t${last}`, key: person.key, first, last };
}

/** The person columns before the dates (person_key … deceased) as COPY text, and person_key. */
type PersonPart = { prefix: string; key: string } | Rejection;

/**
 * The previous row's person fields and what they gave: a person's rows follow each other
 * (one per address), and a file without person fields repeats the empty ones on every row.
 */
let lastPerson:
  | {
      label: string;
      id: string;
      middle: string;
      suffix: string;
      birthYear: string;
      birthDate: string;
      deceased: string;
      part: PersonPart;
    }
  | undefined;

function personPart(raw: RawContact, source: RowSourceLabel): PersonPart {
  const known = lastPerson;
  if (
    known !== undefined &&
    known.id === raw.person_id &&
    known.label === source.label &&
    known.middle === raw.middle_name &&
    known.suffix === raw.suffix &&
    known.birthYear === raw.birth_year &&
    known.birthDate === raw.birth_date &&
    known.deceased === raw.deceased
  ) {
    return known.part;
  }
  const part = readPersonPart(raw, source);
  lastPerson = {
    label: source.label,
    id: raw.person_id,
    middle: raw.middle_name,
    suffix: raw.suffix,
    birthYear: raw.birth_year,
    birthDate: raw.birth_date,
    deceased: raw.deceased,
    part,
  };
  return part;
}

function readPersonPart(raw: RawContact, source: RowSourceLabel): PersonPart {
  let birthYear = '\\N';
  const year =
    raw.birth_year !== ''
      ? raw.birth_year
      : raw.birth_date === ''
        ? ''
        : (normalizeSeen(raw.birth_date) ?? 'x').slice(0, 4);
  if (year !== '') {
    const n = Number(year);
    if (!/^\d{4}$/.test(year) || n < 1850 || n > 2100)
      return reject(`bad birth year ${quoted(raw.birth_year || raw.birth_date)}`);
    birthYear = year;
  }
  const dead = raw.deceased.toLowerCase();
  if (!TRUE_WORDS.has(dead) && !FALSE_WORDS.has(dead)) return reject(`bad deceased ${quoted(raw.deceased)} (Y/N)`);
  if (raw.person_id.length > 200) return reject('person_id longer than 200 characters');
  const key = raw.person_id === '' ? '' : personKey(source.label, raw.person_id);
  const prefix = [
    encodeCopyValue(key),
    encodeCopyValue(raw.middle_name),
    encodeCopyValue(raw.suffix),
    birthYear,
    TRUE_WORDS.has(dead) ? 't' : 'f',
  ].join('\t');
  return { prefix, key };
}

/**
 * The contact's COPY line for the staging table, or why it is rejected.
 *
 * A row with a person_id is one address of that person: it needs no phone of its own (an
 * old address matters for who owned or lived where), and its row_hash is the person and
 * the dwelling, so a newer file of the same source updates the row instead of adding one
 * (contact-stage.ts upserts). A phone without dates of its own takes the row's.
 */
export function toContactLine(raw: RawContact, source: RowSourceLabel): string | Rejection {
  if (raw.street_address === '') return reject('missing street_address');
  if (raw.city === '') return reject('missing city');
  if (raw.state === '') return reject('missing state');
  if (raw.zip_code === '') return reject('missing zip_code');
  const text = standardize(raw);
  if (text.rejection !== undefined) return text.rejection;

  const person = personText(raw, source);
  if ('reason' in person) return person;

  let phones = '';
  seen.length = 0;
  for (const phone of raw.phones) {
    const number = toE164(phone.number);
    if (number === null || seen.includes(number)) continue;
    seen.push(number);
    let dates = '';
    const first =
      phone.first_seen === undefined || phone.first_seen === '' ? person.first : normalizeSeen(phone.first_seen);
    const last = phone.last_seen === undefined || phone.last_seen === '' ? person.last : normalizeSeen(phone.last_seen);
    if (first === null) return reject(`bad phone first_seen ${quoted(phone.first_seen ?? '')}`);
    if (last === null) return reject(`bad phone last_seen ${quoted(phone.last_seen ?? '')}`);
    if (first !== '') dates += `,"first_seen":"${first}"`;
    if (last !== '') dates += `,"last_seen":"${last}"`;
    phones += `${phones === '' ? '' : ','}{"number":"${number}","type":"${lineType(phone.type)}"${dates}}`;
  }
  if (phones === '' && person.key === '') {
    return reject(
      raw.phones.length === 0 ? 'no phone' : `no valid phone (${raw.phones.map((p) => quoted(p.number)).join(' ')})`,
    );
  }
  let emailJson = '[]';
  if (raw.emails.length > 0) {
    const emails: string[] = [];
    for (const email of raw.emails) {
      const lower = email.toLowerCase();
      if (EMAIL.test(lower) && !emails.includes(lower)) emails.push(lower);
    }
    emailJson = JSON.stringify(emails);
  }
  const first = firstNameText(raw.first_name);
  const last = lastNameText(raw.last_name);
  // phones is JSON of E.164 digits and fixed type names: nothing to escape for COPY.
  phones = `[${phones}]`;
  // Rows without person fields hash exactly as before the owner model, so files imported
  // then and again now are still duplicates.
  let hashed: string;
  if (person.key !== '') hashed = rowHash(`P\n${person.key}\n${text.unitKey}`);
  else {
    const base = `${text.unitKey}\n${first.norm}\n${last.norm}\n${phones}\n${emailJson}`;
    hashed = rowHash(person.text === NO_PERSON ? base : `${base}\n${person.text}`);
  }
  return [
    text.keys,
    first.rawCopy,
    last.rawCopy,
    first.normCopy,
    last.normCopy,
    text.fields,
    phones,
    encodeCopyValue(emailJson),
    source.copy,
    hashed,
    `${person.text}\n`,
  ].join('\t');
}
