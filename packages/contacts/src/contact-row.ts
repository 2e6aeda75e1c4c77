/**
 * One raw contact → the row stored in `contacts` (in STAGE_COLUMNS order), or the reason
 * it is rejected. Address, names and phones go through @skiptrace/matching, so stored
 * keys are built exactly as the worker builds its query keys.
 */
import { hash } from 'node:crypto';
import { candidateKeys, normalizePerson, standardizeAddress } from '@skiptrace/matching';
import type { StandardAddress } from '@skiptrace/matching';
import type { RawContact } from './contact-readers.ts';
import { lineType, toE164 } from './phone-cache.ts';

/** Loose e-mail shape check: something@something.tld, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function quoted(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/**
 * The row hash covers what identifies a contact (keys, normalised names, phones, e-mails),
 * not the source label or the raw spelling, so the same person at the same door with the
 * same numbers is stored once even when two vendor files spell the address differently.
 */
function rowHash(parts: string): string {
  return hash('sha256', parts, 'base64url').slice(0, 22);
}

/**
 * Vendor files list a property's owners on consecutive rows (1–4 per household), so the
 * previous row's address is remembered: a repeat costs a string compare, not a parse.
 */
let lastAddressInput = '';
let lastAddress: StandardAddress | undefined;

function standardize(raw: RawContact): StandardAddress {
  const input = `${raw.street_address}\u0000${raw.city}\u0000${raw.state}\u0000${raw.zip_code}`;
  if (lastAddress === undefined || input !== lastAddressInput) {
    lastAddress = standardizeAddress(raw);
    lastAddressInput = input;
  }
  return lastAddress;
}

export function toContactRow(raw: RawContact, source: string): unknown[] | string {
  if (raw.street_address === '') return 'missing street_address';
  if (raw.city === '') return 'missing city';
  if (raw.state === '') return 'missing state';
  if (raw.zip_code === '') return 'missing zip_code';
  const address = standardize(raw);
  if (address.state === null) return `unknown state ${quoted(raw.state)}`;
  if (address.zip5 === null) return `bad zip_code ${quoted(raw.zip_code)}`;
  if (address.number === '') return `no house number in street_address ${quoted(raw.street_address)}`;
  if (address.streetName === '') return `no street name in street_address ${quoted(raw.street_address)}`;

  let phones = '';
  const seen = new Set<string>();
  for (const phone of raw.phones) {
    const number = toE164(phone.number);
    if (number === null || seen.has(number)) continue;
    seen.add(number);
    phones += `${phones === '' ? '' : ','}{"number":"${number}","type":"${lineType(phone.type)}"}`;
  }
  if (phones === '') {
    return raw.phones.length === 0
      ? 'no phone'
      : `no valid phone (${raw.phones.map((p) => quoted(p.number)).join(' ')})`;
  }
  const emails: string[] = [];
  for (const email of raw.emails) {
    const lower = email.toLowerCase();
    if (EMAIL.test(lower) && !emails.includes(lower)) emails.push(lower);
  }
  const person = normalizePerson(raw.first_name, raw.last_name);
  const firstNorm = person.first.join(' ');
  const lastNorm = person.last.join(' ');
  const emailJson = JSON.stringify(emails);
  // The keys matching builds for stored rows: the same code builds the worker's query keys.
  const keys = candidateKeys(address);
  phones = `[${phones}]`;
  return [
    keys.address_key,
    keys.unit_key,
    raw.first_name,
    raw.last_name,
    firstNorm,
    lastNorm,
    address.line,
    address.city,
    address.state,
    address.zip5,
    // Pre-serialised JSON text: COPY writes strings as they are (no second stringify).
    phones,
    emailJson,
    source,
    rowHash(`${keys.unit_key}\n${firstNorm}\n${lastNorm}\n${phones}\n${emailJson}`),
  ];
}
