/**
 * Which input column feeds which canonical field. Canonical names are
 * `street_address, city, state, zip_code, first_name, last_name, phone_N, phone_N_type,
 * email_N` (N from 1); common vendor headers are recognised case-, space-, underscore- and
 * punctuation-insensitively, and an explicit map (canonical → header) wins over both.
 */

import { ADDRESS_FIELDS as PLACE_FIELDS, NAME_FIELDS } from '@skiptrace/contracts';

/**
 * The owner model's person columns (docs/contact-data.md): rows with the same person_id
 * (within one --source) are one person at several addresses, each with its dates.
 */
const PERSON_FIELDS = [
  'person_id',
  'middle_name',
  'suffix',
  'birth_year',
  'birth_date',
  'deceased',
  'first_seen',
  'last_seen',
] as const;

/** A contact row's single-valued fields: the property's address and name fields (@skiptrace/contracts) and the person's. */
const ADDRESS_FIELDS = [...PLACE_FIELDS, ...NAME_FIELDS, ...PERSON_FIELDS] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

export interface PhoneColumn {
  number: number;
  /** Columns holding this phone's own dates (phone_N_first_seen / phone_N_last_seen), if any. */
  firstSeen?: number;
  lastSeen?: number;
  /** Column holding this phone's line type, if any. */
  type?: number;
  /** Line type implied by the header ("Mobile", "Landline") when there is no type column. */
  impliedType?: string;
}

export interface ColumnLayout {
  fields: Partial<Record<AddressField, number>>;
  phones: PhoneColumn[];
  emails: number[];
}

export class ImportFormatError extends Error {
  override name = 'ImportFormatError';
}

/** Vendor spellings, already folded by foldHeader. */
const ALIASES: Record<AddressField, string[]> = {
  street_address: [
    'address',
    'propertyaddress',
    'street',
    'streetaddress',
    'address1',
    'addressline1',
    'propertystreet',
    'propertystreetaddress',
    'siteaddress',
    'situsaddress',
    'situsstreetaddress',
  ],
  city: ['propertycity', 'sitecity', 'situscity', 'town'],
  state: ['st', 'propertystate', 'sitestate', 'situsstate', 'stateprovince'],
  zip_code: [
    'zip',
    'zip5',
    'zipcode',
    'postalcode',
    'postcode',
    'propertyzip',
    'propertyzipcode',
    'sitezip',
    'situszip',
    'zipcode5',
  ],
  first_name: ['first', 'fname', 'firstname', 'ownerfirstname', 'owner1firstname', 'givenname'],
  last_name: ['last', 'lname', 'lastname', 'surname', 'ownerlastname', 'owner1lastname', 'familyname'],
  person_id: ['personid', 'personkey', 'individualid', 'pid', 'consumerid'],
  middle_name: ['middle', 'mname', 'middlename', 'middleinitial', 'mi'],
  suffix: ['namesuffix', 'generation'],
  birth_year: ['birthyear', 'yearofbirth', 'yob'],
  birth_date: ['birthdate', 'dateofbirth', 'dob'],
  deceased: ['isdeceased', 'deceasedflag', 'deceasedindicator'],
  first_seen: ['firstseen', 'firstseendate', 'addressfirstseen', 'fromdate', 'movein', 'moveindate'],
  last_seen: ['lastseen', 'lastseendate', 'addresslastseen', 'todate', 'moveout', 'moveoutdate'],
};

const ALIAS_INDEX = new Map<string, AddressField>();
for (const field of ADDRESS_FIELDS) {
  ALIAS_INDEX.set(foldHeader(field), field);
  for (const alias of ALIASES[field]) ALIAS_INDEX.set(alias, field);
}

/** "Phone 1", "phone_1", "Phone Number 2", "Phone1" → its number; "Phone" → 1. */
const NUMBERED_PHONE = /^(?:phone|phonenumber|telephone|tel)(\d*)$/;
const PHONE_TYPE = /^(?:phone|phonenumber)(\d*)(?:line)?type$|^phone(?:line)?type(\d*)$/;
const TYPED_PHONE = /^(mobile|cell|cellphone|mobilephone|wireless|landline|homephone|residential|voip)(\d*)$/;
const IMPLIED_TYPE: Record<string, string> = {
  mobile: 'mobile',
  cell: 'mobile',
  cellphone: 'mobile',
  mobilephone: 'mobile',
  wireless: 'mobile',
  landline: 'landline',
  homephone: 'landline',
  residential: 'landline',
  voip: 'voip',
};
const PHONE_DATE = /^(?:phone|phonenumber)(\d*)(first|last)seen(?:date)?$/;
const EMAIL = /^(?:email|emailaddress|mail)(\d*)$/;
const CANONICAL =
  /^(street_address|city|state|zip_code|first_name|last_name|person_id|middle_name|suffix|birth_year|birth_date|deceased|first_seen|last_seen|phone_(\d+)(_type|_first_seen|_last_seen)?|email_(\d+))$/;

/** Lower-cases and drops spaces, underscores, hyphens, dots and '#'. */
export function foldHeader(header: string): string {
  return header.toLowerCase().replace(/[\s_\-.#/]+/g, '');
}

/** Checks map's keys are canonical names; returns it unchanged. */
export function validateMap(map: Record<string, string>): Record<string, string> {
  for (const key of Object.keys(map)) {
    if (!CANONICAL.test(key)) throw new ImportFormatError(`--map: "${key}" is not a canonical column name`);
  }
  return map;
}

export function resolveColumns(headers: readonly string[], map: Record<string, string> = {}): ColumnLayout {
  const folded = headers.map((h) => foldHeader(h.trim()));
  const taken = new Set<number>();
  const explicit = new Map<string, number>();
  for (const [canonical, header] of Object.entries(validateMap(map))) {
    let index = headers.findIndex((h) => h.trim() === header.trim());
    if (index === -1) index = folded.indexOf(foldHeader(header));
    if (index === -1) throw new ImportFormatError(`--map ${canonical}=${header}: no column "${header}" in the header`);
    explicit.set(canonical, index);
    taken.add(index);
  }
  const numbered = new Map<number, PhoneColumn>();
  const phoneTypes = new Map<number, number>();
  const phoneFirst = new Map<number, number>();
  const phoneLast = new Map<number, number>();
  const typed: PhoneColumn[] = [];
  const emails = new Map<number, number>();
  const fields: Partial<Record<AddressField, number>> = {};
  folded.forEach((name, index) => {
    if (taken.has(index)) return;
    const field = ALIAS_INDEX.get(name);
    let m: RegExpExecArray | null;
    if (field) fields[field] ??= index;
    else if ((m = NUMBERED_PHONE.exec(name))) setOnce(numbered, Number(m[1] || 1), { number: index });
    else if ((m = PHONE_TYPE.exec(name))) setOnce(phoneTypes, Number(m[1] || m[2] || 1), index);
    else if ((m = PHONE_DATE.exec(name))) setOnce(m[2] === 'first' ? phoneFirst : phoneLast, Number(m[1] || 1), index);
    else if ((m = TYPED_PHONE.exec(name))) typed.push({ number: index, impliedType: IMPLIED_TYPE[m[1]!] });
    else if ((m = EMAIL.exec(name))) setOnce(emails, Number(m[1] || 1), index);
  });
  for (const [canonical, index] of explicit) {
    const m = CANONICAL.exec(canonical)!;
    if (m[2] && m[3] === '_type') phoneTypes.set(Number(m[2]), index);
    else if (m[2] && m[3]) (m[3] === '_first_seen' ? phoneFirst : phoneLast).set(Number(m[2]), index);
    else if (m[2]) numbered.set(Number(m[2]), { number: index });
    else if (m[4]) emails.set(Number(m[4]), index);
    else fields[canonical as AddressField] = index;
  }
  // Typed columns ("Mobile", "Landline") take the lowest free phone numbers, in header order.
  for (const column of typed) {
    let n = 1;
    while (numbered.has(n)) n++;
    numbered.set(n, column);
  }
  const phones = [...numbered.entries()]
    .sort(([a], [b]) => a - b)
    .map(([n, column]) => ({
      ...column,
      type: phoneTypes.get(n),
      firstSeen: phoneFirst.get(n),
      lastSeen: phoneLast.get(n),
    }));
  return {
    fields,
    phones,
    emails: [...emails.entries()].sort(([a], [b]) => a - b).map(([, index]) => index),
  };
}

function setOnce<V>(target: Map<number, V>, key: number, value: V): void {
  if (!target.has(key)) target.set(key, value);
}

/** Fails before any row is read when the file cannot yield a contact at all. */
export function assertUsable(layout: ColumnLayout, headers: readonly string[]): void {
  const missing = (['street_address', 'city', 'state', 'zip_code'] as const).filter(
    (f) => layout.fields[f] === undefined,
  );
  if (layout.phones.length === 0) missing.push('phone_1' as never);
  if (missing.length > 0) {
    throw new ImportFormatError(
      `no column for ${missing.join(', ')} (header: ${headers.join(', ')}); name them or use --map`,
    );
  }
}
