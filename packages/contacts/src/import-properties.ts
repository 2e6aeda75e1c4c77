/**
 * Streams a property-record file (a county roll, a list provider's export) into
 * `property_records` (migration 101; docs/property-data.md): read → standardise the situs
 * and mailing addresses → COPY into a staging table → upsert by parcel, in batches. The
 * contact import's conventions hold: CSV or NDJSON, any encoding textChunks reads,
 * `map` (canonical → header) over built-in aliases, bad rows to `rejects` as `line,reason`.
 *
 * Owner strings are stored as recorded; the trace parses them (@skiptrace/owners) in the
 * name order detected here from the file's first batch ("SMITH JOHN A" or "JOHN A SMITH").
 * A newer record of the same parcel (same situs dwelling) replaces the older one.
 */
import { randomBytes } from 'node:crypto';
import {
  ADDRESS_FIELDS,
  OWNER_NAME_COLUMNS,
  PROPERTY_RECORD_COLUMNS,
  SITUS_STREET_PARTS,
  type PropertyRecordColumn,
  type SitusStreetPart,
} from '@skiptrace/contracts';
import { detectNameOrder, NAME_ORDER_RECORDS, type NameOrder } from '@skiptrace/owners';
import {
  ADDRESS_MEMO_LIMIT,
  BoundedMemo,
  candidateKeys,
  createAddressStandardizer,
  type AddressInput,
  type StandardAddress,
} from '@skiptrace/matching';
import { analyzeAfterLoad, COPY_CHUNK_SIZE, encodeCopyValue, type Database } from '@skiptrace/storage';
import { csvCell } from '@skiptrace/runtime';
import { foldHeader, ImportFormatError } from './columns.ts';
import { cellText, jsonObjectOf, layoutCache } from './contact-readers.ts';
import { csvRecords } from './csv-records.ts';
import { normalizeSeen } from './seen-dates.ts';
import { textChunks, textLines, type ImportSource } from './text-chunks.ts';
import type { ImportContactsOptions, ImportCounts } from './import-contacts.ts';
import { writeOut } from './import-contacts.ts';
import { bulkLoadable, createBulkLoad, type BulkTarget } from './contact-load.ts';

/** The columns a property file may have: the canonical record columns, and the situs line split. */
const INPUT_COLUMNS = [...PROPERTY_RECORD_COLUMNS, ...SITUS_STREET_PARTS] as const;
type InputColumn = PropertyRecordColumn | SitusStreetPart;

/** Header spellings of county rolls and list providers, folded as foldHeader folds them. */
const PROPERTY_ALIASES: Record<InputColumn, string[]> = {
  apn: [
    'parcel',
    'parcelnumber',
    'parcelid',
    'parcelno',
    'pin',
    'apnnumber',
    'assessorparcelnumber',
    'bbl',
    'folio',
    'accountnumber',
    'propertyid',
  ],
  street_address: [
    'situsaddr',
    'situsaddress',
    'situs',
    'siteaddr',
    'siteaddress',
    'propertyaddress',
    'address',
    'streetaddress',
    'location',
    'locationaddress',
    'propertystreet',
    'situsstreet',
  ],
  city: ['situscity', 'sitecity', 'propertycity', 'city'],
  state: ['situsstate', 'sitestate', 'propertystate', 'st'],
  zip_code: ['situszip', 'sitezip', 'propertyzip', 'propertyzipcode', 'zip', 'zip5', 'zipcode', 'situszipcode'],
  owner_name: [
    'owner',
    'ownername',
    'ownname',
    'owner1',
    'ownername1',
    'owner1name',
    'ownerfullname',
    'owners',
    'taxpayername',
    'grantee',
  ],
  owner_name_2: ['owner2', 'ownername2', 'owner2name', 'ownname2', 'secondowner', 'coowner', 'coownername'],
  owner_1_first_name: ['owner1firstname', 'ownerfirstname', 'owner1first', 'firstname'],
  owner_1_last_name: ['owner1lastname', 'ownerlastname', 'owner1last', 'lastname'],
  owner_2_first_name: ['owner2firstname', 'owner2first'],
  owner_2_last_name: ['owner2lastname', 'owner2last'],
  mailing_street_address: [
    'mailaddr',
    'mailaddress',
    'mailingaddress',
    'mailingstreet',
    'mailstreet',
    'mailingstreetaddress',
    'mailaddress1',
    'mailingaddress1',
    'owneraddress',
    'taxbilladdress',
  ],
  mailing_city: ['mailcity', 'mailingcity', 'ownercity'],
  mailing_state: ['mailstate', 'mailingstate', 'ownerstate'],
  mailing_zip_code: ['mailzip', 'mailingzip', 'mailzipcode', 'mailingzipcode', 'mailzip5', 'ownerzip'],
  owner_occupied: ['owneroccupied', 'owneroccupiedflag', 'ownerocc', 'homestead', 'homesteadexemption', 'occupied'],
  last_sale_date: ['saledate', 'lastsaledate', 'lastsale', 'recordingdate', 'deeddate', 'lastsalerecordingdate'],
  street_number: [
    'situsnum',
    'situsno',
    'situsnumber',
    'situshouseno',
    'situshousenum',
    'situshousenumber',
    'situsstreetnumber',
    'situsstnum',
    'situsstno',
    'situsaddrnum',
    'sitehouseno',
    'sitenumber',
    'siteaddrnum',
    'housenumber',
    'houseno',
    'housenum',
    'streetnumber',
    'stnum',
    'stno',
    'addrnum',
    'addressnumber',
    'propertyhousenumber',
  ],
  street_direction: [
    'situsdir',
    'situspredir',
    'situsdirection',
    'situsstreetdir',
    'situsprefixdir',
    'sitedir',
    'predir',
    'predirection',
    'prefixdirection',
    'streetdir',
    'streetdirection',
    'stdir',
    'dirprefix',
  ],
  street_name: [
    'situsstreetname',
    'situsstname',
    'situsstrname',
    'sitestreetname',
    'sitestname',
    'streetname',
    'stname',
    'strname',
    'propertystreetname',
  ],
  street_suffix: [
    'situssuffix',
    'situsstreettype',
    'situssttype',
    'situsstsuffix',
    'situsstreetsuffix',
    'situstype',
    'sitestreettype',
    'sitesuffix',
    'streetsuffix',
    'streettype',
    'sttype',
    'stsuffix',
    'suffixtype',
  ],
  street_post_direction: [
    'situspostdir',
    'situspostdirection',
    'situsstreetpostdir',
    'sitepostdir',
    'postdir',
    'postdirection',
    'streetpostdir',
    'dirsuffix',
  ],
  unit: [
    'situsunit',
    'situsunitno',
    'situsunitnumber',
    'situsapt',
    'siteunit',
    'unitnumber',
    'unitno',
    'unit',
    'aptno',
    'apt',
    'apartment',
    'suite',
  ],
};

const PROPERTY_ALIAS_INDEX = new Map<string, InputColumn>();
for (const field of INPUT_COLUMNS) PROPERTY_ALIAS_INDEX.set(foldHeader(field), field);
for (const field of INPUT_COLUMNS) {
  for (const alias of PROPERTY_ALIASES[field])
    if (!PROPERTY_ALIAS_INDEX.has(alias)) PROPERTY_ALIAS_INDEX.set(alias, field);
}

export type PropertyLayout = Partial<Record<InputColumn, number>>;

/** Which column feeds which canonical field: `map` first, then the field's own name, then aliases. */
export function resolvePropertyColumns(headers: readonly string[], map: Record<string, string> = {}): PropertyLayout {
  const layout: PropertyLayout = {};
  const taken = new Set<number>();
  const folded = headers.map((h) => foldHeader(h.trim()));
  for (const [canonical, header] of Object.entries(map)) {
    if (!(INPUT_COLUMNS as readonly string[]).includes(canonical)) {
      throw new ImportFormatError(`--map: "${canonical}" is not a canonical property column`);
    }
    let index = headers.findIndex((h) => h.trim() === header.trim());
    if (index === -1) index = folded.indexOf(foldHeader(header));
    if (index === -1) throw new ImportFormatError(`--map ${canonical}=${header}: no column "${header}" in the header`);
    layout[canonical as InputColumn] = index;
    taken.add(index);
  }
  folded.forEach((name, index) => {
    if (taken.has(index)) return;
    const field = PROPERTY_ALIAS_INDEX.get(name);
    if (field !== undefined) layout[field] ??= index;
  });
  return layout;
}

function assertPropertyColumns(layout: PropertyLayout, headers: readonly string[]): void {
  const missing: string[] = (['street_address', 'city', 'state', 'zip_code'] as const).filter(
    (f) =>
      layout[f] === undefined &&
      !(f === 'street_address' && layout.street_number !== undefined && layout.street_name !== undefined),
  );
  if (layout.owner_name === undefined && layout.owner_1_last_name === undefined) missing.push('owner_name');
  if (missing.length > 0) {
    throw new ImportFormatError(
      `no column for ${missing.join(', ')} (header: ${headers.join(', ')}); name them or use --map`,
    );
  }
}

type RawProperty = Record<PropertyRecordColumn, string>;
type PropertyRecord = { line: number; property: RawProperty } | { line: number; error: string };

/** Each record column's field index in a layout (-1: no such column). */
type ColumnIndexes = Record<PropertyRecordColumn, number>;

const columnIndexes = new WeakMap<PropertyLayout, ColumnIndexes>();

function indexesOf(layout: PropertyLayout): ColumnIndexes {
  let indexes = columnIndexes.get(layout);
  if (indexes === undefined) {
    indexes = {} as ColumnIndexes;
    for (const field of PROPERTY_RECORD_COLUMNS) indexes[field] = layout[field] ?? -1;
    columnIndexes.set(layout, indexes);
  }
  return indexes;
}

const cell = (fields: readonly string[], index: number): string => (index < 0 ? '' : (fields[index] ?? '').trim());

/**
 * The record's columns, trimmed ('' for a column the file lacks). One object literal of a
 * fixed shape: filled field by field from {}, a record's object grew its property store
 * several times over.
 */
function pick(fields: readonly string[], layout: PropertyLayout): RawProperty {
  const at = indexesOf(layout);
  const out: RawProperty = {
    apn: cell(fields, at.apn),
    street_address: cell(fields, at.street_address),
    city: cell(fields, at.city),
    state: cell(fields, at.state),
    zip_code: cell(fields, at.zip_code),
    owner_name: cell(fields, at.owner_name),
    owner_name_2: cell(fields, at.owner_name_2),
    owner_1_first_name: cell(fields, at.owner_1_first_name),
    owner_1_last_name: cell(fields, at.owner_1_last_name),
    owner_2_first_name: cell(fields, at.owner_2_first_name),
    owner_2_last_name: cell(fields, at.owner_2_last_name),
    mailing_street_address: cell(fields, at.mailing_street_address),
    mailing_city: cell(fields, at.mailing_city),
    mailing_state: cell(fields, at.mailing_state),
    mailing_zip_code: cell(fields, at.mailing_zip_code),
    owner_occupied: cell(fields, at.owner_occupied),
    last_sale_date: cell(fields, at.last_sale_date),
  };
  if (layout.street_number !== undefined) out.street_address = situsLine(fields, layout, out.street_address);
  return out;
}

/** A unit as a street line ends with it: "APT 4", "#4", "STE 200" as given, "4B" → "# 4B". */
const UNIT_WITH_DESIGNATOR = /^(?:#|[a-z]+\.?\s)/i;

/**
 * The situs street line of a roll that splits it: house number, direction, street name,
 * suffix, post-direction, unit, joined. A roll's one street column may hold the name alone
 * (SITUS_STREET beside SITUS_HOUSE_NO) or the whole line: the number is put before it
 * unless the line already starts with it. Without a number the street column is used as is.
 */
function situsLine(fields: readonly string[], layout: PropertyLayout, street: string): string {
  const part = (name: SitusStreetPart): string => {
    const index = layout[name];
    return index === undefined ? '' : (fields[index] ?? '').trim();
  };
  const number = part('street_number');
  if (number === '') return street;
  const name = part('street_name');
  if (name === '' && (street === number || street.toUpperCase().startsWith(`${number.toUpperCase()} `))) return street;
  const unit = part('unit');
  return [
    number,
    part('street_direction'),
    name || street,
    part('street_suffix'),
    part('street_post_direction'),
    unit === '' || UNIT_WITH_DESIGNATOR.test(unit) ? unit : `# ${unit}`,
  ]
    .filter((piece) => piece !== '')
    .join(' ');
}

async function* csvProperties(
  chunks: AsyncIterable<string>,
  map: Record<string, string> | undefined,
): AsyncGenerator<PropertyRecord[]> {
  let layout: PropertyLayout | undefined;
  let width = 0;
  for await (const records of csvRecords(chunks)) {
    const out: PropertyRecord[] = [];
    for (const record of records) {
      if (layout === undefined) {
        if (record.fields === null)
          throw new ImportFormatError(`line ${record.line}: unreadable header (${record.error})`);
        layout = resolvePropertyColumns(record.fields, map);
        assertPropertyColumns(layout, record.fields);
        width = record.fields.length;
      } else if (record.fields === null) out.push({ line: record.line, error: record.error ?? 'malformed CSV' });
      else if (record.fields.length > width)
        out.push({ line: record.line, error: `${record.fields.length} fields, header has ${width}` });
      else out.push({ line: record.line, property: pick(record.fields, layout) });
    }
    if (out.length > 0) yield out;
  }
}

async function* ndjsonProperties(
  chunks: AsyncIterable<string>,
  map: Record<string, string> | undefined,
): AsyncGenerator<PropertyRecord[]> {
  const layoutOf = layoutCache((keys) => resolvePropertyColumns(keys, map));
  for await (const lines of textLines(chunks)) {
    const out: PropertyRecord[] = [];
    for (const { line, text } of lines) {
      const parsed = jsonObjectOf(text);
      if (parsed === undefined) continue;
      if ('error' in parsed) {
        out.push({ line, error: parsed.error });
        continue;
      }
      const keys = Object.keys(parsed.object);
      out.push({
        line,
        property: pick(
          keys.map((key) => cellText(parsed.object[key])),
          layoutOf(keys),
        ),
      });
    }
    if (out.length > 0) yield out;
  }
}

/** SQLSTATE of a unique constraint violation. */
const UNIQUE_VIOLATION = '23505';

/** Staging and stored columns, in COPY order. */
const RECORD_COLUMNS = [
  'record_key',
  'apn',
  'address_key',
  'unit_key',
  'street_address',
  'city',
  'state',
  'zip5',
  ...OWNER_NAME_COLUMNS,
  'name_order',
  'mailing_street_address',
  'mailing_city',
  'mailing_state',
  'mailing_zip5',
  'mailing_key',
  'mailing_unit_key',
  'owner_occupied',
  'last_sale_date',
  'source',
] as const;

const YES = new Set(['y', 'yes', 'true', 't', '1', 'o', 'owner', 'owner occupied', 'h', 'homestead']);
const NO = new Set(['n', 'no', 'false', 'f', '0', 'a', 'absentee', 'non-owner occupied', 'r', 'renter']);

/** Why a record was not stored. */
function quoted(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/** What fillRecord remembers across one import's records. */
interface RecordContext {
  /** The source column's COPY text and the line's end. */
  sourceLine: string;
  /** Situs addresses: each parcel's street line is new, its city, state and ZIP are not. */
  situs: (input: AddressInput) => StandardAddress;
  /** Mailing addresses: a landlord's repeats on each of their parcels. */
  mailing: (input: AddressInput) => StandardAddress;
  /** The mailing columns' COPY text by mailing street line (the entry checks the rest). */
  mailingText: BoundedMemo<{ city: string; state: string; zip: string; text: string }>;
}

function recordContext(sourceCopy: string): RecordContext {
  return {
    sourceLine: `${sourceCopy}\n`,
    situs: createAddressStandardizer(ADDRESS_MEMO_LIMIT, 0),
    // No street memo: mailingText remembers whole mailing addresses by street line.
    mailing: createAddressStandardizer(ADDRESS_MEMO_LIMIT, 0),
    mailingText: new BoundedMemo(ADDRESS_MEMO_LIMIT),
  };
}

const NO_MAILING = '\t\t\t\t\t';

/** mailingColumns' cells, joined. */
const MAILING: string[] = ['', '', '', '', '', ''];

/**
 * The six mailing columns' COPY text (tab-separated) of a standardised mailing address,
 * one flat string (remembered by mailingText: a rope of its pieces cost several times its
 * size while it lived).
 */
function mailingColumns(m: StandardAddress, raw: RawProperty): string {
  // A PO box or a foreign address is kept for display; only a street address is a key people are found at.
  const keyed = m.number !== '' && m.zip5 !== null && m.state !== null;
  MAILING[0] = encodeCopyValue(m.line);
  MAILING[1] = encodeCopyValue(m.city);
  MAILING[2] = encodeCopyValue(m.state ?? raw.mailing_state);
  MAILING[3] = encodeCopyValue(m.zip5 ?? raw.mailing_zip_code);
  MAILING[4] = keyed ? encodeCopyValue(m.key) : '';
  MAILING[5] = keyed ? encodeCopyValue(m.unitKey) : '';
  return MAILING.join('\t');
}

/**
 * A record's row of COPY cells: RECORD_COLUMNS in order, the six mailing columns in one
 * cell (mailingColumns) and the source with the line's end in the last; name_order's index.
 */
const ROW_CELLS = RECORD_COLUMNS.length - 5;
const ORDER_AT = RECORD_COLUMNS.indexOf('name_order');

/**
 * Fills `row` with a record's COPY columns, RECORD_COLUMNS in order, the six mailing
 * columns as one and the source with the line's end (name_order is left to the caller,
 * who knows it once the file's first records are read); or returns why it is rejected.
 * The line is then one join of `row`: no rope of a line's fifty pieces to build and flatten.
 */
function fillRecord(raw: RawProperty, context: RecordContext, row: string[]): string | undefined {
  for (const field of ADDRESS_FIELDS) {
    if (raw[field] === '') return `missing ${field}`;
  }
  if (
    raw.owner_name === '' &&
    raw.owner_name_2 === '' &&
    raw.owner_1_last_name === '' &&
    raw.owner_2_last_name === ''
  ) {
    return 'no owner name';
  }
  const situs = context.situs(raw);
  if (situs.state === null) return `unknown state ${quoted(raw.state)}`;
  if (situs.zip5 === null) return `bad zip_code ${quoted(raw.zip_code)}`;
  if (situs.number === '') return `no house number in street_address ${quoted(raw.street_address)}`;
  const keys = candidateKeys(situs);
  let mailing = NO_MAILING;
  if (raw.mailing_street_address !== '') {
    // An owner-occupied parcel's tax bill goes to the parcel: the same text is not standardised twice.
    const same =
      raw.mailing_street_address === raw.street_address &&
      raw.mailing_city === raw.city &&
      raw.mailing_state === raw.state &&
      raw.mailing_zip_code === raw.zip_code;
    if (same) mailing = mailingColumns(situs, raw);
    else {
      const known = context.mailingText.get(raw.mailing_street_address);
      if (
        known !== undefined &&
        known.city === raw.mailing_city &&
        known.state === raw.mailing_state &&
        known.zip === raw.mailing_zip_code
      ) {
        mailing = known.text;
      } else {
        const m = context.mailing({
          street_address: raw.mailing_street_address,
          city: raw.mailing_city,
          state: raw.mailing_state,
          zip_code: raw.mailing_zip_code,
        });
        mailing = mailingColumns(m, raw);
        context.mailingText.set(raw.mailing_street_address, {
          city: raw.mailing_city,
          state: raw.mailing_state,
          zip: raw.mailing_zip_code,
          text: mailing,
        });
      }
    }
  }
  const occupied = raw.owner_occupied.toLowerCase();
  const ownerOccupied = occupied === '' ? '\\N' : YES.has(occupied) ? 't' : NO.has(occupied) ? 'f' : undefined;
  if (ownerOccupied === undefined) return `bad owner_occupied ${quoted(raw.owner_occupied)} (Y/N)`;
  const sale = normalizeSeen(raw.last_sale_date);
  if (sale === null) return `bad last_sale_date ${quoted(raw.last_sale_date)}`;
  for (const field of OWNER_NAME_COLUMNS) {
    if (raw[field].length > 300) return `${field} longer than 300 characters`;
  }
  const unitKey = encodeCopyValue(keys.unitKey);
  row[0] = unitKey;
  row[1] = encodeCopyValue(raw.apn);
  row[2] = encodeCopyValue(keys.addressKey);
  row[3] = unitKey;
  row[4] = encodeCopyValue(situs.line);
  row[5] = encodeCopyValue(situs.city);
  row[6] = encodeCopyValue(situs.state);
  row[7] = encodeCopyValue(situs.zip5);
  row[8] = encodeCopyValue(raw.owner_name);
  row[9] = encodeCopyValue(raw.owner_name_2);
  row[10] = encodeCopyValue(raw.owner_1_first_name);
  row[11] = encodeCopyValue(raw.owner_1_last_name);
  row[12] = encodeCopyValue(raw.owner_2_first_name);
  row[13] = encodeCopyValue(raw.owner_2_last_name);
  // row[ORDER_AT]: name_order
  row[15] = mailing;
  row[16] = ownerOccupied;
  row[17] = encodeCopyValue(sale);
  row[18] = context.sourceLine;
  return undefined;
}

/**
 * Moves staged records into property_records: a newer record of a stored parcel replaces
 * it when it differs (and counts as stored), an identical one is a duplicate. One record
 * per parcel of the batch.
 */
function upsertSql(table: string): string {
  const columns = RECORD_COLUMNS.join(', ');
  const updated = RECORD_COLUMNS.filter((c) => c !== 'record_key');
  return `INSERT INTO property_records (${columns})
    SELECT DISTINCT ON (record_key) ${columns} FROM ${table} ORDER BY record_key
    ON CONFLICT (record_key) DO UPDATE SET (${updated.join(', ')}, imported_at) = (${updated.map((c) => `EXCLUDED.${c}`).join(', ')}, now())
    WHERE (${updated.map((c) => `property_records.${c}`).join(', ')}) IS DISTINCT FROM (${updated.map((c) => `EXCLUDED.${c}`).join(', ')})`;
}

/**
 * The bulk load into an empty property_records: of a parcel repeated in the file the last
 * record stays (a newer record replaces the older one; the others count as duplicates).
 */
const PROPERTY_RECORDS_TARGET: BulkTarget = {
  table: 'property_records',
  columns: RECORD_COLUMNS,
  key: 'record_key',
  keep: 'last',
  moveSql: upsertSql,
  keepIndexesUp: false,
};

/**
 * One batch's COPY text for the load table, handed to its COPY chunk by chunk as the
 * records are read: PostgreSQL stores a chunk while Node prepares the next, and the
 * batch's COPY ends soon after its last record (a whole batch kept until its COPY outlived
 * young-generation collections, and the last batch's COPY was all that ran at the end).
 */
class ChunkFeed implements AsyncIterable<string> {
  private readonly queue: string[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  push(chunk: string): void {
    this.queue.push(chunk);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    for (let i = 0; ;) {
      if (i < this.queue.length) {
        const chunk = this.queue[i]!;
        this.queue[i++] = '';
        yield chunk;
      } else if (this.ended) return;
      else {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      }
    }
  }
}

/** The contact import's options (the source label goes to property_records.source). */
export type ImportPropertiesOptions = ImportContactsOptions;

/**
 * Imports property records. `imported` counts new parcels and parcels whose record was
 * replaced by a different one; `duplicates` records identical to the one stored (or
 * repeated in the file).
 */
export async function importProperties(
  db: Database,
  source: ImportSource,
  options: ImportPropertiesOptions,
): Promise<ImportCounts> {
  const { format, map, rejects, onProgress, batchSize = 10_000, charset } = options;
  const counts: ImportCounts = { read: 0, imported: 0, duplicates: 0, rejected: 0 };
  const records = (format === 'csv' ? csvProperties : ndjsonProperties)(textChunks(source, charset), map);
  const sourceCopy = encodeCopyValue(options.source ?? '');
  const first = await records.next();
  await writeOut(rejects, 'line,reason\n');
  // An empty property_records is filled through a table without indexes that then takes
  // its place (contact-load.ts, as the contact import does): maintaining its three indexes
  // row by row was most of the roll's PostgreSQL time. A table with records takes the new
  // ones batch by batch: straight COPY, then staged and upserted once a parcel repeats.
  const bulk = (await bulkLoadable(db, 'property_records'))
    ? await createBulkLoad(
        db,
        ({ staged, inserted }) => {
          counts.imported += inserted;
          counts.duplicates += staged - inserted;
          onProgress?.({ ...counts });
        },
        2,
        PROPERTY_RECORDS_TARGET,
      )
    : undefined;
  const table = `property_records_stage_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  if (bulk === undefined) {
    await db.query(
      `CREATE UNLOGGED TABLE ${table} (${RECORD_COLUMNS.map((c) => `${c} ${c === 'owner_occupied' ? 'boolean' : 'text'}`).join(', ')})`,
    );
  }
  const upsert = upsertSql(table);
  let order: NameOrder | undefined;
  let conflicts = false;
  let analyzed = false;
  // Each distinct city, state, ZIP and mailing address is standardised once per import:
  // rolls repeat them (a town's name on thousands of parcels, a landlord's mailing address
  // on each of theirs).
  const context = recordContext(sourceCopy);
  /** The first records' COPY columns and owner names, until the file's name order is known. */
  let pending: { row: string[]; names: string[] }[] = [];
  /** The record being read's COPY columns (RECORD_COLUMNS, see fillRecord), name_order once known. */
  let row: string[] = new Array<string>(ROW_CELLS).fill('');
  /**
   * Where the batch's COPY text goes in chunks of about COPY_CHUNK_SIZE (one CopyData
   * message and socket write per chunk, not per line: a write per line was a fifth of the
   * import's Node time): into the load table's COPY as they are made (bulk), or kept until
   * the batch is complete (a straight COPY that fails on a stored parcel is staged again).
   */
  let chunks: string[] = [];
  let feed: ChunkFeed | undefined;
  // Lines are joined once a chunk's worth is there: each line is a rope of its fields, and
  // joining flattens them while they are young (a batch of ropes kept until its COPY made
  // the garbage collector copy them, and Buffer.from flatten them, at a cost).
  let lines: string[] = [];
  let size = 0;
  let batched = 0;
  /** The load table's COPYs, one after the other (rows get their ids in file order). */
  let copies: Promise<void> = Promise.resolve();
  /** The COPY of the batch before the one being written: waited for before a third starts. */
  let previous: Promise<void> = Promise.resolve();
  const emit = (chunk: string): void => {
    if (bulk === undefined) {
      chunks.push(chunk);
      return;
    }
    if (feed === undefined) {
      const batch = new ChunkFeed();
      feed = batch;
      previous = copies;
      // A batch's COPY starts once the one before it is complete; its chunks wait meanwhile.
      copies = previous.then(async () => {
        await bulk.load(batch);
        await bulk.flush();
      });
      // Until awaited (end of a later batch, or the end), a failure is not an unhandled rejection.
      copies.catch(() => undefined);
    }
    feed.push(chunk);
  };
  const add = (line: string): void => {
    lines.push(line);
    size += line.length;
    if (size >= COPY_CHUNK_SIZE) {
      emit(lines.join(''));
      lines = [];
      size = 0;
    }
  };
  /** The file's name order, from its first records: rolls write "SMITH JOHN A", many list providers "JOHN A SMITH". */
  const decideOrder = (): void => {
    // A string that says so itself (comma, initial) overrides it.
    order = detectNameOrder(pending.map((p) => p.names));
    for (const p of pending) {
      p.row[ORDER_AT] = order;
      add(p.row.join('\t'));
    }
    pending = [];
    row[ORDER_AT] = order;
  };
  /** The batch being written by a straight or staged COPY: the next one is read and prepared meanwhile, and waits for it. */
  let inflight: Promise<void> = Promise.resolve();
  /** Ends the batch: its last lines go to its COPY. */
  const write = async (): Promise<void> => {
    if (order === undefined) {
      if (pending.length === 0) return;
      decideOrder();
    }
    if (batched === 0) return;
    if (lines.length > 0) emit(lines.join(''));
    lines = [];
    size = 0;
    batched = 0;
    if (bulk !== undefined) {
      feed?.end();
      feed = undefined;
      // At most this batch's COPY and the next batch's chunks are in memory.
      await previous;
      return;
    }
    const text = chunks;
    chunks = [];
    await inflight;
    inflight = store(text);
    // Until awaited (next write, or the end), a failure is not an unhandled rejection.
    inflight.catch(() => undefined);
  };
  /** A batch into a property_records with records. */
  const store = async (lines: string[]): Promise<void> => {
    // Straight into property_records until a batch meets a parcel already stored (or
    // repeated in the file): COPY fails as a whole on the unique record_key, and from then
    // on every batch is staged and upserted (a newer record replaces the stored one).
    if (!conflicts) {
      try {
        const written = await db.copyText('property_records', [...RECORD_COLUMNS], lines);
        counts.imported += written;
        onProgress?.({ ...counts });
        return;
      } catch (error) {
        if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
        conflicts = true;
      }
    }
    const staged = await db.copyText(table, [...RECORD_COLUMNS], lines);
    const { rowCount } = await db.query(upsert);
    await db.query(`TRUNCATE ${table}`);
    counts.imported += rowCount;
    counts.duplicates += staged - rowCount;
    onProgress?.({ ...counts });
  };
  try {
    for (let next = first; !next.done; next = await records.next()) {
      let text = '';
      for (const record of next.value) {
        counts.read++;
        const reason = 'error' in record ? record.error : fillRecord(record.property, context, row);
        if (reason !== undefined) {
          counts.rejected++;
          text += `${record.line},${csvCell(reason)}\n`;
          continue;
        }
        batched++;
        if (order !== undefined) add(row.join('\t'));
        else {
          const p = (record as { property: RawProperty }).property;
          pending.push({ row, names: [p.owner_name, p.owner_name_2].filter((n) => n !== '') });
          row = new Array<string>(ROW_CELLS).fill('');
          // detectNameOrder reads no further: the order is known, and the COPY can start.
          if (pending.length >= NAME_ORDER_RECORDS) decideOrder();
        }
      }
      await writeOut(rejects, text);
      if (batched >= batchSize) await write();
    }
    await write();
    await inflight;
    await copies;
    if (bulk !== undefined) analyzed = await bulk.finish();
  } finally {
    // A batch cut short (the file failed to decode) ends: its COPY completes into the load table, which is dropped.
    feed?.end();
    await inflight.catch(() => undefined);
    await copies.catch(() => undefined);
    await records.return?.(undefined);
    if (bulk !== undefined) await bulk.dispose();
    else await db.query(`DROP TABLE IF EXISTS ${table}`);
  }
  // A bulk load that took the place of property_records analyzed it before the swap.
  if (!analyzed) await analyzeAfterLoad(db, 'property_records', counts.imported);
  if (counts.imported + counts.duplicates === 0) onProgress?.({ ...counts });
  return counts;
}

/** How many property records an import with this `source` stored. */
export async function countPropertyRecords(db: Database, source: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM property_records WHERE source = $1`, [
    source,
  ]);
  return rows[0]?.n ?? 0;
}
