/**
 * The worker's lookup, in two steps.
 *
 * findCandidates: every stored contact a query could be, found by three blocking keys
 * (docs/matching.md) — the exact address key; the same ZIP5 and house number (a
 * misspelt street); the same state, city and house number (a wrong ZIP) — or by the exact
 * address key alone (`blocks = 'address'`, the engine's first step). One statement for
 * the whole batch: the queries' keys are unnest'ed arrays and each key probes the indexes
 * of migration 022 from a LATERAL subquery with a LIMIT. The LATERAL reference rules out a
 * hash join, and the LIMIT bounds the candidates per query, so an index scan per query is
 * the only sensible plan even before the table has statistics. Candidates come back with
 * their names, keys, phones, e-mails and source.
 *
 * loadContactDetails: the chosen contacts' phones with Do-Not-Call and litigator flags
 * (one query on `suppression` by `number = ANY($1)`; one by id only for candidates that did
 * not come from findCandidates). So a batch of queries all found at their address costs two
 * round trips (exact-key lookup, suppression), three when any query needs the other keys.
 */
import type { Phone } from '@skiptrace/contracts';
import { prepared, type Sql } from '@skiptrace/storage';

/** What a query is looked up by (@skiptrace/matching blockingKeys). */
export interface CandidateQuery {
  /** NUMBER|STREET|ZIP5. */
  addressKey: string;
  /** House number (first field of the address key). */
  number: string;
  zip5: string | null;
  state: string | null;
  city: string;
}

/** Candidates per query and block (see CANDIDATE_LIMITS). */
export interface CandidateLimits {
  /** Rows at the exact address key (a household, or a building without unit numbers). */
  address: number;
  /** Rows at the same ZIP5 and house number on another street spelling. */
  zipNumber: number;
  /** Rows at the same state, city and house number in another ZIP. */
  cityNumber: number;
}

/**
 * The fuzzy blocks were 25 rows until the stress evaluation found apartment buildings with
 * more residents than that at one (ZIP, number): a misspelt street then left the person
 * asked for out, and a housemate with a similar name (Joan for Jean) was returned.
 */
export const CANDIDATE_LIMITS: CandidateLimits = { address: 200, zipNumber: 200, cityNumber: 100 };

export interface ContactDetails {
  /** In the file's order; dnc/litigator reflect the suppression lists at query time. */
  phones: Phone[];
  emails: string[];
  /** The import's source label. */
  source: string;
}

export interface ContactCandidate {
  /** contacts.id (int8, as a string). */
  id: string;
  addressKey: string;
  /** Dwelling-level key (address key plus unit, "…|" when none). */
  unitKey: string;
  firstName: string;
  lastName: string;
  /** The names as normalised at import (matching's nameTokens joined by spaces), for scoring. */
  firstNorm: string;
  lastNorm: string;
  /** Standardised street line, city, USPS state code and ZIP5 as stored. */
  streetAddress: string;
  city: string;
  state: string;
  zip5: string;
  /** The owner model (migration 100): '' for a row without a person_id. */
  personKey: string;
  middleName: string;
  suffix: string;
  birthYear: number | null;
  deceased: boolean;
  /** When the person was seen at this address, as stored (seen-dates.ts). */
  firstSeen: string;
  lastSeen: string;
}

/** A phone as stored in contacts.phones. */
export interface StoredPhone {
  number: string;
  type: Phone['type'];
  first_seen?: string;
  last_seen?: string;
}

interface StoredDetails {
  phones: StoredPhone[];
  emails: string[];
  source: string;
}

/**
 * A row as the candidate query returns it: the candidate itself (its columns named as
 * ContactCandidate's fields, so the driver's row object is the candidate, not copied into
 * one) with its stored details and its query's ordinal.
 */
type CandidateRow = ContactCandidate & { i: string; phones: StoredPhone[] | null; emails: string[]; source: string };

/** The columns a lookup reads, each with the CandidateRow field it becomes. */
const FIELDS = {
  id: 'id',
  address_key: 'addressKey',
  unit_key: 'unitKey',
  first_name: 'firstName',
  last_name: 'lastName',
  first_norm: 'firstNorm',
  last_norm: 'lastNorm',
  street_address: 'streetAddress',
  city: 'city',
  state: 'state',
  zip5: 'zip5',
  phones: 'phones',
  emails: 'emails',
  source: 'source',
  person_key: 'personKey',
  middle_name: 'middleName',
  suffix: 'suffix',
  birth_year: 'birthYear',
  deceased: 'deceased',
  first_seen: 'firstSeen',
  last_seen: 'lastSeen',
} satisfies Record<string, keyof CandidateRow>;
const COLUMNS = Object.keys(FIELDS).join(', ');
/** What a null of these columns reads as (StoredDetails: emails and source are never null). */
const WHEN_NULL: Partial<Record<string, string>> = { emails: `'{}'`, source: `''` };
/** The outer SELECT's list: each column as its field. */
const AS_FIELDS = Object.entries(FIELDS)
  .map(([column, field]) => {
    const value = WHEN_NULL[column] === undefined ? `c.${column}` : `coalesce(c.${column}, ${WHEN_NULL[column]})`;
    return `${value} AS "${field}"`;
  })
  .join(', ');
const HOUSE_NUMBER = `split_part(address_key, '|', 1)`;

// The exact-key branch names ZIP and number too, so that without statistics its estimate
// is a handful of rows (index), not 0.5 % of the table.
const ADDRESS_BLOCK = `(SELECT ${COLUMNS} FROM contacts
    WHERE zip5 = q.zip5 AND ${HOUSE_NUMBER} = q.hn AND address_key = q.akey LIMIT $6::int)`;
const NEAR_BLOCKS = `(SELECT ${COLUMNS} FROM contacts
    WHERE zip5 = q.zip5 AND ${HOUSE_NUMBER} = q.hn AND address_key <> q.akey LIMIT $7::int)
  UNION ALL
  (SELECT ${COLUMNS} FROM contacts
    WHERE state = q.state AND city = q.city AND ${HOUSE_NUMBER} = q.hn AND zip5 IS DISTINCT FROM q.zip5
    LIMIT $8::int)`;

// Phones, e-mails and source for every row: the first step reads only the exact key, and
// the second only serves the few queries that found nobody there, so a person chosen
// through another key needs no further read.
const candidatesSql = (blocks: string) => `
SELECT q.i, ${AS_FIELDS}
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS q(akey, hn, zip5, state, city, i)
CROSS JOIN LATERAL (
  ${blocks}
) c`;

/** Which blocking keys a lookup probes (see findCandidates). */
export type CandidateBlocks = 'all' | 'address';

const CANDIDATES_SQL: Record<CandidateBlocks, string> = {
  all: prepared(candidatesSql(`${ADDRESS_BLOCK}\n  UNION ALL\n  ${NEAR_BLOCKS}`)),
  address: prepared(candidatesSql(ADDRESS_BLOCK)),
};

const DETAILS_SQL = 'SELECT id, phones, emails, source FROM contacts WHERE id = ANY($1::int8[])';

// Both kinds listed so the (kind, number) primary key serves the lookup.
const SUPPRESSION_SQL = `
SELECT kind, number FROM suppression
WHERE kind IN ('dnc', 'litigator') AND number = ANY($1::text[])`;

/** Rows of a query's exact address key remember their details for loadContactDetails. */
const detailsOf = new WeakMap<ContactCandidate, StoredDetails>();

function byId(a: ContactCandidate, b: ContactCandidate): number {
  return a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Candidates per query, in the queries' order (an empty array when nothing is near);
 * within a query, in import order (id). Queries without a house number find nothing.
 * `blocks`: every blocking key (default), or only the exact address key — the first step
 * of the engine's two-step lookup, which probes the other keys only for queries that found
 * nobody there (docs/matching.md).
 */
export async function findCandidates(
  db: Sql,
  queries: readonly CandidateQuery[],
  limits: CandidateLimits = CANDIDATE_LIMITS,
  blocks: CandidateBlocks = 'all',
): Promise<ContactCandidate[][]> {
  const out: ContactCandidate[][] = queries.map(() => []);
  const index: number[] = [];
  for (let i = 0; i < queries.length; i++) if ((queries[i] as CandidateQuery).number !== '') index.push(i);
  if (index.length === 0) return out;
  const pick = (field: keyof CandidateQuery): (string | null)[] =>
    index.map((i) => (queries[i] as CandidateQuery)[field]);
  const params = [pick('addressKey'), pick('number'), pick('zip5'), pick('state'), pick('city'), limits.address];
  if (blocks === 'all') params.push(limits.zipNumber, limits.cityNumber);
  const { rows } = await db.query<CandidateRow>(CANDIDATES_SQL[blocks], params);
  const seen = queries.map(() => new Set<string>());
  for (const row of rows) {
    const at = index[Number(row.i) - 1] as number;
    // A row can be in two blocks of one query only when its keys are inconsistent; once.
    if ((seen[at] as Set<string>).has(row.id)) continue;
    (seen[at] as Set<string>).add(row.id);
    // The row is the candidate (extra fields and all: they are read through storedDetailsOf).
    const candidate: ContactCandidate = row;
    if (row.phones !== null) detailsOf.set(candidate, row as StoredDetails);
    (out[at] as ContactCandidate[]).push(candidate);
  }
  for (const list of out) list.sort(byId);
  return out;
}

/** The phones (with their dates) and e-mails stored on a candidate's row, as findCandidates read them. */
export function storedDetailsOf(candidate: ContactCandidate): { phones: StoredPhone[]; emails: string[] } | undefined {
  return detailsOf.get(candidate);
}

/** Which of the numbers are on the Do-Not-Call and the litigator lists (one query; none when no number). */
export async function suppressedNumbers(
  db: Sql,
  numbers: Set<string>,
): Promise<{ dnc: Set<string>; litigator: Set<string> }> {
  const dnc = new Set<string>();
  const litigator = new Set<string>();
  if (numbers.size > 0) {
    const flagged = await db.query<{ kind: string; number: string }>(SUPPRESSION_SQL, [[...numbers]]);
    for (const { kind, number } of flagged.rows) (kind === 'dnc' ? dnc : litigator).add(number);
  }
  return { dnc, litigator };
}

/**
 * Phones (with suppression flags), e-mails and source of the given candidates (from
 * findCandidates), by contact id. A contact deleted since it was found is left out.
 */
export async function loadContactDetails(
  db: Sql,
  candidates: Iterable<ContactCandidate>,
): Promise<Map<string, ContactDetails>> {
  const stored = new Map<string, StoredDetails>();
  const missing: string[] = [];
  for (const candidate of candidates) {
    const details = detailsOf.get(candidate);
    if (details !== undefined) stored.set(candidate.id, details);
    else if (!stored.has(candidate.id)) missing.push(candidate.id);
  }
  if (missing.length > 0) {
    const { rows } = await db.query<StoredDetails & { id: string }>(DETAILS_SQL, [missing]);
    for (const { id, phones, emails, source } of rows) stored.set(id, { phones, emails, source });
  }
  const numbers = new Set<string>();
  for (const details of stored.values()) for (const phone of details.phones) numbers.add(phone.number);
  const { dnc, litigator } = await suppressedNumbers(db, numbers);
  const out = new Map<string, ContactDetails>();
  for (const [id, details] of stored) {
    out.set(id, {
      phones: details.phones.map(({ number, type }) => ({
        number,
        type,
        dnc: dnc.has(number),
        litigator: litigator.has(number),
      })),
      emails: details.emails,
      source: details.source,
    });
  }
  return out;
}
