/**
 * The owner model's reads (ADR 0010): the property records at a batch's addresses, and
 * every row of the people a trace may return with their phones' suppression flags — one
 * statement each for the whole batch, by the hash indexes of migrations 100 and 101.
 */
import { prepared, type Sql } from '@skiptrace/storage';
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
// A prepared statement (@skiptrace/storage): one index probe per key, a LATERAL subquery
// fenced by OFFSET 0 so the plan is that nested loop whatever the number of keys. Its generic
// plan then costs no more than a custom one; `address_key = ANY($1)` of a bound array had a
// generic plan a third slower at a chunk's 500 keys (a custom one is planned every time).
const RECORDS_SQL = prepared(`
SELECT r.address_key, r.unit_key, r.owner_name, r.owner_name_2, r.owner_1_first_name, r.owner_1_last_name,
       r.owner_2_first_name, r.owner_2_last_name, r.name_order, r.mailing_street_address, r.mailing_city,
       r.mailing_state, r.mailing_zip5, r.mailing_key, r.mailing_unit_key
  FROM unnest($1::text[]) AS k(address_key)
 CROSS JOIN LATERAL (SELECT * FROM property_records p WHERE p.address_key = k.address_key OFFSET 0) r`);

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
// json since migration 111) and parse were most of what reading it cost. One index probe per
// person (the partial hash index of migration 100, hence `c.person_key <> ''`) in a LATERAL
// subquery fenced by OFFSET 0, and the held ids as a hashed NOT IN: the same plan, custom or
// generic, so PEOPLE_SQL is a prepared statement; with `person_key = ANY($1) AND NOT (id =
// ANY($2))` the generic plan ran 3× slower at a chunk's size (a bound array is hashed for
// `= ANY` only as a constant, in a custom plan).
const PERSON_ROWS = `SELECT c.id, c.person_key, c.address_key, c.unit_key, c.street_address, c.city, c.state, c.zip5,
       c.first_seen, c.last_seen, c.phones, c.emails, c.deceased
  FROM unnest($1::text[]) AS k(person_key)
 CROSS JOIN LATERAL (SELECT * FROM contacts c WHERE c.person_key = k.person_key AND c.person_key <> '' OFFSET 0) c
 WHERE c.id NOT IN (SELECT unnest($2::int8[]))`;

// The same rows and, in the same statement, which phone numbers are on the Do-Not-Call or
// litigator list: the numbers of the rows read here and those the caller holds ($3). The
// suppression rows come after the person rows with a null id (`kind`, `number`). The numbers
// are not made distinct (UNION ALL): `= ANY` does not mind repeats, and a HashAggregate over
// json_array_elements' estimate of 100 elements a row tripled the plan's cost — PostgreSQL's
// JIT compiles a plan over 100,000 (jit_above_cost), some 6,000 rows a chunk now, 2,000 with it.
const PEOPLE_SQL = prepared(`
WITH r AS MATERIALIZED (${PERSON_ROWS})
SELECT id, person_key, address_key, unit_key, street_address, city, state, zip5, first_seen, last_seen, phones, emails,
       deceased, NULL::text AS kind, NULL::text AS number
  FROM r
UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, s.kind, s.number
  FROM suppression s
 WHERE s.kind IN ('dnc', 'litigator')
   AND s.number = ANY (ARRAY(SELECT p ->> 'number' FROM r, json_array_elements(r.phones) AS p
                             UNION ALL SELECT unnest($3::text[])))`);

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
  // A person row keeps its two null suppression columns (a copy without them was an object
  // more a row, and the rows are most of what a chunk holds through its round trips).
  for (const row of result.rows) {
    if (row.id === null) (row.kind === 'dnc' ? suppressed.dnc : suppressed.litigator).add(row.number!);
    else add(row);
  }
  for (const [key, list] of rows) {
    list.sort(byId);
    if (list.length > MAX_ROWS_PER_PERSON) rows.set(key, list.slice(-MAX_ROWS_PER_PERSON));
  }
  return { rows, suppressed };
}
