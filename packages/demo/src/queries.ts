/**
 * `demoQueryFor(row)`: the same address as a demo row, written the way a caller might —
 * different suffix spelling, directionals spelled out, ordinal words, "Saint" for "St",
 * another unit designator, changed case and punctuation, ZIP+4, the state's full name.
 * Every variant standardises to the row's key, so it is "an address that will match".
 */
import type { AddressField, NameField } from '@skiptrace/contracts';
import {
  CARDINAL_WORDS,
  DIRECTIONAL_WORD,
  ORDINAL_WORDS,
  PUB28_C1,
  STATE_NAMES,
  parseStreetLine,
} from '@skiptrace/matching';
import type { ContactRow } from './contacts.ts';
import { hashString, mulberry32, pick } from './prng.ts';
import type { Random } from './prng.ts';

/** The query a list would send for a contact: the request's address and name fields (@skiptrace/contracts). */
export type DemoQuery = Record<AddressField | NameField, string>;

const ORDINAL_WORD_BY_NUMBER = new Map([...ORDINAL_WORDS].map(([word, n]) => [n, word]));
const TENS_WORD_BY_NUMBER = new Map([...CARDINAL_WORDS].filter(([, n]) => n >= 20).map(([word, n]) => [n, word]));
const UNIT_SPELLINGS: Record<string, readonly string[]> = {
  APT: ['Apt.', 'Apartment', '#', 'Unit'],
  UNIT: ['Unit', 'Apt', '#'],
  STE: ['Suite', 'Ste.', '#'],
  '#': ['#', 'Apt', 'Unit', 'No.'],
};

const title = (word: string): string => word.charAt(0) + word.slice(1).toLowerCase();

function ordinalWords(token: string): string | null {
  const match = /^(\d+)(ST|ND|RD|TH)$/.exec(token);
  if (match === null) return null;
  const n = Number(match[1]);
  const exact = ORDINAL_WORD_BY_NUMBER.get(n);
  if (exact !== undefined) return title(exact);
  const tens = TENS_WORD_BY_NUMBER.get(n - (n % 10));
  const unit = ORDINAL_WORD_BY_NUMBER.get(n % 10);
  return n < 100 && tens !== undefined && unit !== undefined ? `${title(tens)}-${title(unit)}` : null;
}

function noisyName(random: Random, streetName: string): string {
  return streetName
    .split(' ')
    .map((word, i) => {
      if (i === 0 && word === 'SAINT') return pick(random, ['Saint', 'St.', 'St']);
      if (word === 'MOUNT') return pick(random, ['Mount', 'Mt.', 'Mt']);
      const spelled = ordinalWords(word);
      if (spelled !== null && random() < 0.6) return spelled;
      return /^\d/.test(word) ? word.toLowerCase() : title(word);
    })
    .join(' ');
}

function otherSuffixForm(random: Random, suffix: string): string {
  const row = PUB28_C1.find(([standard]) => standard === suffix);
  const primary = row?.[1] ?? suffix;
  const forms = (row ?? [suffix]).slice(1).filter((form) => form !== suffix);
  // Half the time the full word (the usual spelling), else any other Pub 28 C1 form.
  return title(random() < 0.5 || forms.length === 0 ? primary : pick(random, forms));
}

function casing(random: Random, text: string): string {
  const roll = random();
  return roll < 0.3 ? text.toLowerCase() : roll < 0.5 ? text.toUpperCase() : text;
}

/** A noisy, matching variant of the row's address and names; deterministic per row + variant. */
export function demoQueryFor(row: ContactRow, variant = 0): DemoQuery {
  const random = mulberry32(hashString(`${row.street_address}|${row.zip_code}|${row.first_name}`) ^ variant);
  const parts = parseStreetLine(row.street_address);
  const words: string[] = [parts.number];
  const spell = (direction: string): string => title(DIRECTIONAL_WORD.get(direction) ?? direction);
  if (parts.preDirectional !== null)
    words.push(random() < 0.7 ? spell(parts.preDirectional) : `${parts.preDirectional}.`);
  words.push(noisyName(random, parts.streetName));
  if (parts.suffix !== null) words.push(otherSuffixForm(random, parts.suffix));
  if (parts.postDirectional !== null) words.push(spell(parts.postDirectional));
  let street = words.join(' ');
  if (parts.unitType !== null) {
    const designator = pick(random, UNIT_SPELLINGS[parts.unitType] ?? [parts.unitType]);
    const unit = parts.unitNumber ?? '';
    const id = /^\d+[A-Z]$/.test(unit) && random() < 0.5 ? `${unit.slice(0, -1)}-${unit.slice(-1)}` : unit;
    street += designator === '#' ? `, #${id}` : `, ${designator} ${id}`;
  }
  const zip4 = String(Math.floor(random() * 10000)).padStart(4, '0');
  const stateName = STATE_NAMES.get(row.state) ?? row.state;
  return {
    street_address: casing(random, street),
    city: casing(random, row.city.replace(/^St\. /, 'Saint ')),
    state: random() < 0.5 ? stateName.toLowerCase() : row.state,
    zip_code: random() < 0.7 ? `${row.zip_code}-${zip4}` : `${row.zip_code}${zip4}`,
    first_name: row.first_name.toUpperCase(),
    last_name: row.last_name.toLowerCase(),
  };
}
