/**
 * Deterministic demo contacts: realistic-looking US households whose phone numbers are
 * all in the NANP fictional range NPA-555-0100…0199 and whose e-mails use the RFC 2606
 * reserved example.com/.net/.org domains — safe to print, load and publish.
 *
 * Same `seed` → same rows (mulberry32). Only 100 numbers exist per area code, so large
 * runs repeat phone numbers across households; that is fine for demos and benchmarks.
 */
import { ADDRESS_FIELDS, NAME_FIELDS, type AddressField, type NameField } from '@skiptrace/contracts';
import { foldAscii } from '@skiptrace/matching';
import { DEMO_FIRST_NAMES, DEMO_LAST_NAMES, DEMO_PLACES, DEMO_STREETS, DEMO_SUFFIXES } from './places.ts';
import { mulberry32, pick, randomInt } from './prng.ts';
import type { Random } from './prng.ts';

/** A canonical contact row, as the ingest pipeline and the storage layer expect it. */
export type ContactRow = Record<AddressField | NameField, string> & {
  phone_1: string;
  phone_1_type: 'mobile' | 'landline' | 'voip';
  phone_2: string | null;
  phone_2_type: 'mobile' | 'landline' | 'voip' | null;
  email_1: string | null;
};

/** ContactRow's fields in the canonical CSV column order. */
export const CONTACT_COLUMNS = [
  ...ADDRESS_FIELDS,
  ...NAME_FIELDS,
  'phone_1',
  'phone_1_type',
  'phone_2',
  'phone_2_type',
  'email_1',
] as const satisfies readonly (keyof ContactRow)[];

export interface GenerateOptions {
  /** Number of person rows to yield. */
  rows: number;
  /** Any 32-bit integer. */
  seed: number;
}

const DIRECTIONALS = ['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW'];
const UNIT_FORMATS = ['Apt', 'Apt', 'Apt', 'Unit', 'Unit', '#', 'Ste'];
const PHONE_TYPES = ['mobile', 'mobile', 'mobile', 'landline', 'landline', 'voip'] as const;
const EMAIL_DOMAINS = ['example.com', 'example.net', 'example.org'];

type Household = Record<AddressField, string> & {
  areaCode: string;
  lastName: string;
  size: number;
};

function makeHousehold(random: Random): Household {
  const place = pick(random, DEMO_PLACES);
  const words = [String(randomInt(random, 1, 9999))];
  if (random() < 0.25) words.push(pick(random, DIRECTIONALS.slice(0, 4)));
  words.push(pick(random, DEMO_STREETS), pick(random, DEMO_SUFFIXES));
  if (random() < 0.05) words.push(pick(random, DIRECTIONALS));
  if (random() < 0.15) {
    const designator = pick(random, UNIT_FORMATS);
    const unit =
      random() < 0.6
        ? String(randomInt(random, 1, 40))
        : `${randomInt(random, 1, 9)}${pick(random, ['A', 'B', 'C', 'D'])}`;
    words.push(designator === '#' ? `#${unit}` : `${designator} ${unit}`);
  }
  const roll = random();
  const size = roll < 0.35 ? 1 : roll < 0.7 ? 2 : roll < 0.88 ? 3 : 4;
  return {
    street_address: words.join(' '),
    city: place.city,
    state: place.state,
    zip_code: place.zip5,
    areaCode: random() < 0.8 ? place.areaCode : pick(random, DEMO_PLACES).areaCode,
    lastName: pick(random, DEMO_LAST_NAMES),
    size,
  };
}

/** A fictional NANP number, NPA-555-01XX, in one of the formats source files use. */
function fictionalPhone(random: Random, areaCode: string): string {
  const line = `01${String(randomInt(random, 0, 99)).padStart(2, '0')}`;
  switch (randomInt(random, 0, 5)) {
    case 0:
      return `(${areaCode}) 555-${line}`;
    case 1:
      return `${areaCode}-555-${line}`;
    case 2:
      return `${areaCode}.555.${line}`;
    case 3:
      return `+1 ${areaCode} 555 ${line}`;
    case 4:
      return `1-${areaCode}-555-${line}`;
    default:
      return `${areaCode}555${line}`;
  }
}

function email(random: Random, first: string, last: string): string {
  const local = `${first}.${last}`.replace(/[^A-Za-z.]/g, '');
  return `${foldAscii(local).toLowerCase()}${randomInt(random, 1, 99)}@${pick(random, EMAIL_DOMAINS)}`;
}

function person(random: Random, household: Household, used: Set<string>): ContactRow {
  let first = pick(random, DEMO_FIRST_NAMES);
  while (used.has(first)) first = pick(random, DEMO_FIRST_NAMES);
  used.add(first);
  const last = used.size === 1 || random() < 0.85 ? household.lastName : pick(random, DEMO_LAST_NAMES);
  const hasSecond = random() < 0.4;
  const areaCode = random() < 0.85 ? household.areaCode : pick(random, DEMO_PLACES).areaCode;
  return {
    street_address: household.street_address,
    city: household.city,
    state: household.state,
    zip_code: household.zip_code,
    first_name: first,
    last_name: last,
    phone_1: fictionalPhone(random, areaCode),
    phone_1_type: pick(random, PHONE_TYPES),
    phone_2: hasSecond ? fictionalPhone(random, household.areaCode) : null,
    phone_2_type: hasSecond ? pick(random, PHONE_TYPES) : null,
    email_1: random() < 0.7 ? email(random, first, last) : null,
  };
}

/** Yields `rows` contact rows, 1–4 per household (the last household may be cut short). */
export function* generateContacts(options: GenerateOptions): Generator<ContactRow, void, undefined> {
  const random = mulberry32(options.seed);
  let emitted = 0;
  while (emitted < options.rows) {
    const household = makeHousehold(random);
    const used = new Set<string>();
    for (let i = 0; i < household.size && emitted < options.rows; i++, emitted++) {
      yield person(random, household, used);
    }
  }
}
