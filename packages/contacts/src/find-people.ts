/**
 * The owner model's reads (ADR 0010): the property records at a batch's addresses, and
 * every row of the people a trace may return with their phones' suppression flags — one
 * statement each for the whole batch, by the hash indexes of migrations 100 and 101.
 */
import type { Sql } from '@skiptrace/storage';
import { suppressedNumbers, type StoredPhone } from './find-candidates.ts';

/**
 * A stored property record (migration 101) as the trace reads it: the dwelling, the owner
 * columns as recorded with the file's name order, and the mailing address standardised.
 */
export interface PropertyRecordRow {
  address_key: string;
  unit_key: string;
  owner_name: string;
  owner_name_2: string;
  owner_1_first_name: string;
  owner_1_last_name: string;
  owner_2_first_name: string;
  owner_2_last_name: string;
  name_order: 'lastFirst' | 'firstLast';
  mailing_street_address: string;
  mailing_city: string;
  mailing_state: string;
  mailing_zip5: string;
  mailing_key: string;
  mailing_unit_key: string;
}

// Only the columns the trace uses (not the situs, parcel number, occupancy or sale date).
const RECORDS_SQL = `
SELECT address_key, unit_key, owner_name, owner_name_2, owner_1_first_name, owner_1_last_name, owner_2_first_name,
       owner_2_last_name, name_order, mailing_street_address, mailing_city, mailing_state, mailing_zip5, mailing_key,
       mailing_unit_key
FROM property_records WHERE address_key = ANY($1::text[])`;

/** The records stored at the given address keys, by key (a building may hold several parcels). */
export async function findPropertyRecords(
  db: Sql,
  addressKeys: readonly string[],
): Promise<Map<string, PropertyRecordRow[]>> {
  const out = new Map<string, PropertyRecordRow[]>();
  const keys = [...new Set(addressKeys.filter((k) => k !== ''))];
  if (keys.length === 0) return out;
  const { rows } = await db.query<PropertyRecordRow>(RECORDS_SQL, [keys]);
  for (const row of rows) {
    const list = out.get(row.address_key);
    if (list === undefined) out.set(row.address_key, [row]);
    else list.push(row);
  }
  return out;
}

/** One stored row of a person: one address with its dates, and the phones listed with it. */
export interface PersonRow {
  id: string;
  person_key: string;
  address_key: string;
  unit_key: string;
  street_address: string;
  city: string;
  state: string;
  zip5: string;
  first_seen: string;
  last_seen: string;
  phones: StoredPhone[];
  emails: string[];
  deceased: boolean;
}

// The rows the caller already holds (a candidate's row at the queried address, read with its
// phones and e-mails by findCandidates) are not read again: a person's row at the address is
// a third of their rows in a world of three addresses each, and its phones' output (jsonb then,
// json since migration 111) and parse were most of what reading it cost. `id = ANY` of a bound array is hashed (PG 14+).
const PERSON_ROWS = `SELECT id, person_key, address_key, unit_key, street_address, city, state, zip5, first_seen,
       last_seen, phones, emails, deceased
  FROM contacts WHERE person_key = ANY($1::text[]) AND person_key <> '' AND NOT (id = ANY($2::int8[]))`;

// The same rows and, in the same statement, which phone numbers are on the Do-Not-Call or
// litigator list: the numbers of the rows read here and those the caller holds ($3). The
// suppression rows come after the person rows with a null id (`kind`, `number`). The numbers
// are not made distinct (UNION ALL): `= ANY` does not mind repeats, and a HashAggregate over
// json_array_elements' estimate of 100 elements a row tripled the plan's cost — PostgreSQL's
// JIT compiles a plan over 100,000 (jit_above_cost), some 6,000 rows a chunk now, 2,000 with it.
const PEOPLE_SQL = `
WITH r AS MATERIALIZED (${PERSON_ROWS})
SELECT id, person_key, address_key, unit_key, street_address, city, state, zip5, first_seen, last_seen, phones, emails,
       deceased, NULL::text AS kind, NULL::text AS number
  FROM r
UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, s.kind, s.number
  FROM suppression s
 WHERE s.kind IN ('dnc', 'litigator')
   AND s.number = ANY (ARRAY(SELECT p ->> 'number' FROM r, json_array_elements(r.phones) AS p
                             UNION ALL SELECT unnest($3::text[])))`;

/** Most rows read for one person (addresses on file); a person with more keeps the newest by id. */
export const MAX_ROWS_PER_PERSON = 50;

const byId = (a: PersonRow, b: PersonRow): number =>
  a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The numbers of the given phones on the Do-Not-Call and the litigator lists. */
export interface Suppressed {
  dnc: Set<string>;
  litigator: Set<string>;
}

/** Every row of the given people and the suppression flags of their phones and of `numbers`. */
export interface People {
  /** By person_key, in import order (id). */
  rows: Map<string, PersonRow[]>;
  suppressed: Suppressed;
}

/**
 * Every row of the given people, by person_key, in import order (id), and which of their
 * phone numbers — and of `numbers` — are suppressed: one statement (a second round trip
 * only to the suppression list when no person is asked for). `known`: rows the caller
 * already read (of these people or others; each id once is enough), merged in instead of
 * read again; their numbers belong in `numbers`.
 */
export async function loadPeople(
  db: Sql,
  personKeys: Iterable<string>,
  known: Iterable<PersonRow>,
  numbers: Iterable<string>,
): Promise<People> {
  const rows = new Map<string, PersonRow[]>();
  const keys = [...new Set(personKeys)].filter((k) => k !== '');
  const asked = [...new Set(numbers)];
  if (keys.length === 0) {
    return { rows, suppressed: await suppressedNumbers(db, new Set(asked)) };
  }
  const wanted = new Set(keys);
  const add = (row: PersonRow) => {
    const list = rows.get(row.person_key);
    if (list === undefined) rows.set(row.person_key, [row]);
    else list.push(row);
  };
  const held = new Set<string>();
  for (const row of known) {
    if (!wanted.has(row.person_key) || held.has(row.id)) continue;
    held.add(row.id);
    add(row);
  }
  const suppressed: Suppressed = { dnc: new Set(), litigator: new Set() };
  const result = await db.query<PersonRow & { kind: string | null; number: string | null }>(PEOPLE_SQL, [
    keys,
    [...held],
    asked,
  ]);
  for (const row of result.rows) {
    if (row.id === null) (row.kind === 'dnc' ? suppressed.dnc : suppressed.litigator).add(row.number!);
    else {
      const { kind: _kind, number: _number, ...person } = row;
      add(person);
    }
  }
  for (const [key, list] of rows) {
    list.sort(byId);
    if (list.length > MAX_ROWS_PER_PERSON) rows.set(key, list.slice(-MAX_ROWS_PER_PERSON));
  }
  return { rows, suppressed };
}
