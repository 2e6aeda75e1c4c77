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
import { candidateKeys, nameTokens, standardizeAddress } from '@skiptrace/matching';
import type { StandardAddress } from '@skiptrace/matching';
import { encodeCopyValue } from '@skiptrace/storage';
import type { RawContact } from './contact-readers.ts';
import { lineType, toE164 } from './phone-cache.ts';

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
  address: StandardAddress;
  unitKey: string;
  /** address_key, unit_key (COPY text, tab-separated). */
  keys: string;
  /** street_address, city, state, zip5 (COPY text, tab-separated). */
  fields: string;
}

/**
 * Vendor files list a property's owners on consecutive rows (1–4 per household), so the
 * previous row's address is remembered: a repeat costs four string compares, not a parse.
 */
let lastStreet = '';
let lastCity = '';
let lastState = '';
let lastZip = '';
let lastAddress: AddressText | undefined;

function standardize(raw: RawContact): AddressText {
  if (
    lastAddress === undefined ||
    raw.street_address !== lastStreet ||
    raw.city !== lastCity ||
    raw.state !== lastState ||
    raw.zip_code !== lastZip
  ) {
    const address = standardizeAddress(raw);
    const keys = candidateKeys(address);
    // The keys matching builds for stored rows: the same code builds the worker's query keys.
    lastAddress = {
      address,
      unitKey: keys.unit_key,
      keys: `${encodeCopyValue(keys.address_key)}\t${encodeCopyValue(keys.unit_key)}`,
      fields: [address.line, address.city, address.state, address.zip5].map(encodeCopyValue).join('\t'),
    };
    lastStreet = raw.street_address;
    lastCity = raw.city;
    lastState = raw.state;
    lastZip = raw.zip_code;
  }
  return lastAddress;
}

/** A name as written and normalised (matching's nameTokens, as normalizePerson does), as COPY text. */
interface NameText {
  norm: string;
  /** The name as written, COPY text. */
  rawCopy: string;
  /** The normalised name, COPY text. */
  normCopy: string;
}

/** Names repeat a lot (first names especially); bounded, and simply emptied when full. */
const MAX_NAMES = 100_000;
const names = new Map<string, NameText>();

function nameText(raw: string): NameText {
  let text = names.get(raw);
  if (text === undefined) {
    const norm = nameTokens(raw).join(' ');
    text = { norm, rawCopy: encodeCopyValue(raw), normCopy: encodeCopyValue(norm) };
    if (names.size >= MAX_NAMES) names.clear();
    names.set(raw, text);
  }
  return text;
}

/** E.164 numbers already in the row being built (reused: one row at a time). */
const seen: string[] = [];

/**
 * The contact's COPY line for the staging table, or why it is rejected. `sourceCopy` is
 * the source label already encoded as COPY text (encodeCopyValue).
 */
export function toContactLine(raw: RawContact, sourceCopy: string): string | Rejection {
  if (raw.street_address === '') return reject('missing street_address');
  if (raw.city === '') return reject('missing city');
  if (raw.state === '') return reject('missing state');
  if (raw.zip_code === '') return reject('missing zip_code');
  const text = standardize(raw);
  const { address } = text;
  if (address.state === null) return reject(`unknown state ${quoted(raw.state)}`);
  if (address.zip5 === null) return reject(`bad zip_code ${quoted(raw.zip_code)}`);
  if (address.number === '') return reject(`no house number in street_address ${quoted(raw.street_address)}`);
  if (address.streetName === '') return reject(`no street name in street_address ${quoted(raw.street_address)}`);

  let phones = '';
  seen.length = 0;
  for (const phone of raw.phones) {
    const number = toE164(phone.number);
    if (number === null || seen.includes(number)) continue;
    seen.push(number);
    phones += `${phones === '' ? '' : ','}{"number":"${number}","type":"${lineType(phone.type)}"}`;
  }
  if (phones === '') {
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
  const first = nameText(raw.first_name);
  const last = nameText(raw.last_name);
  // phones is JSON of E.164 digits and fixed type names: nothing to escape for COPY.
  phones = `[${phones}]`;
  const hashed = rowHash(`${text.unitKey}\n${first.norm}\n${last.norm}\n${phones}\n${emailJson}`);
  return [
    text.keys,
    first.rawCopy,
    last.rawCopy,
    first.normCopy,
    last.normCopy,
    text.fields,
    phones,
    encodeCopyValue(emailJson),
    sourceCopy,
    `${hashed}\n`,
  ].join('\t');
}
