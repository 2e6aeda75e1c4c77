import {
  REQUEST_FIELDS,
  type Address,
  type AddressField,
  type NameField,
  type Property,
  type PropertyResponse,
  type TraceResult,
} from '@skiptrace/contracts';
import { recordTrace } from '@skiptrace/runtime';
import { jsonDocumentsParam, jsonDocumentsSql, prepared, type Database, type Sql } from '@skiptrace/storage';
import { phonesIn, usageUpsertSql, UTC_DAY_SQL } from '@skiptrace/usage';
import type { BatchRows, OwnerFacts } from './batch-rows.port.ts';

/**
 * The request's columns of a properties row (REQUEST_FIELDS of @skiptrace/contracts): the
 * address, the owner's name, the owner's mailing address and the parcel number (migration 102).
 */
type RequestColumns = Record<AddressField, string> &
  Record<NameField, string | null> & { mailing_address: Address | null; apn: string | null };

/** A properties row as the store returns it (BIGINT as string, timestamps as Date). */
export type PropertyRow = RequestColumns & {
  id: string;
  account_id: string;
  batch_id: string | null;
  status: PropertyResponse['status'];
  error: string | null;
  results: TraceResult[];
  /** How many people matched when `results` is not all of them (the response's `truncated`), else null. */
  people_total: number | null;
  /** The outcome's owners of record and the mailing address used, when it had any. */
  owner_facts: OwnerFacts | null;
  created_at: Date;
  completed_at: Date | null;
};

/** An outcome's OwnerFacts, or null when it has none (most rows without a record). */
export function ownerFactsOf(outcome: OwnerFacts): OwnerFacts | null {
  const facts: OwnerFacts = {};
  if (outcome.owners_of_record !== undefined) facts.owners_of_record = outcome.owners_of_record;
  if (outcome.mailing_address !== undefined) facts.mailing_address = outcome.mailing_address;
  return facts.owners_of_record === undefined && facts.mailing_address === undefined ? null : facts;
}

/** The outcome columns (written when a trace completes; a batch row's are its batch's: BatchRows). */
const OUTCOME_COLUMNS = ['status', 'error', 'results', 'people_total', 'owner_facts'];

const COLUMN_NAMES = [
  'id',
  'account_id',
  ...REQUEST_FIELDS,
  'batch_id',
  ...OUTCOME_COLUMNS,
  'created_at',
  'completed_at',
];

/**
 * The stored documents: JSON text in text columns (migration 113: jsonb parsed every trace's
 * results on the way in, about 20 µs of the database's CPU for an owner-model document),
 * read as json so that the driver parses them.
 */
const DOCUMENT_COLUMNS: readonly string[] = ['results', 'owner_facts'];

const COLUMNS = COLUMN_NAMES.map((c) => (DOCUMENT_COLUMNS.includes(c) ? `${c}::json AS ${c}` : c)).join(', ');

/** A properties row with its place in its batch, if it is a batch row. */
type StoredRow = PropertyRow & { row_number: number | null };

const SELECT_PROPERTIES = `SELECT ${COLUMNS}, row_number FROM properties p`;

/**
 * The rows as the API shows them. A batch row's outcome is its batch's (BatchRows: its
 * `properties` row keeps its input and stays `pending`), so a traced batch row takes the
 * outcome columns from there.
 */
async function withOutcomes(sql: Sql, batchRows: BatchRows, stored: StoredRow[]): Promise<PropertyRow[]> {
  const inBatch = stored.filter((r) => r.batch_id !== null && r.row_number !== null);
  const outcomes =
    inBatch.length === 0
      ? []
      : await batchRows.outcomes(
          sql,
          inBatch.map((r) => ({ batchId: r.batch_id!, rowNumber: r.row_number! })),
        );
  const byId = new Map(inBatch.map((r, i) => [r.id, outcomes[i]]));
  return stored.map(({ row_number: _, ...row }) => {
    const outcome = byId.get(row.id);
    if (!outcome) return row;
    const { status, error, results, people_total, owner_facts, completed_at } = outcome;
    return { ...row, status, error, results, people_total, owner_facts, completed_at };
  });
}

/**
 * The completed synchronous rows of `done` into usage_daily: each a sync trace, a hit when
 * its result holds a phone, a miss when it was stored without one (a failed trace is
 * neither). Batch rows are counted by the batch's chunk store, not here.
 */
const COUNT_SYNC_USAGE = usageUpsertSql(
  `SELECT account_id, coalesce(usage_client, ''), ${UTC_DAY_SQL},
          count(*), 0, count(*) FILTER (WHERE usage_phones > 0),
          count(*) FILTER (WHERE usage_phones = 0 AND usage_status <> 'failed'), coalesce(sum(usage_phones), 0), 0
     FROM done WHERE batch_id IS NULL GROUP BY 1, 2`,
);

/** COLUMNS but the outcome ones, and qualified by the alias `p`, for the completing UPDATE. */
const UNCHANGED_COLUMNS = COLUMN_NAMES.filter((c) => !OUTCOME_COLUMNS.includes(c)).join(', ');
const UNCHANGED_ALIASED_COLUMNS = UNCHANGED_COLUMNS.split(', ')
  .map((c) => `p.${c}`)
  .join(', ');

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/** The submitted property's columns of a row. */
export type PropertyColumns = Pick<RequestColumns, AddressField | NameField> &
  Partial<Pick<RequestColumns, 'mailing_address' | 'apn'>>;

/** The request a row was submitted as: its columns, less the empty ones. */
export function propertyOf(row: PropertyColumns): Property {
  const p: Record<string, unknown> = {};
  for (const field of REQUEST_FIELDS) {
    const value = row[field];
    if (value) p[field] = value;
  }
  return p as Property;
}

/**
 * A request's values in REQUEST_FIELDS order, as the store takes them: the mailing address as
 * JSON text, null where a field is absent.
 */
export function requestValues(p: Property): (string | null)[] {
  return REQUEST_FIELDS.map((field) =>
    field === 'mailing_address'
      ? p.mailing_address === undefined
        ? null
        : JSON.stringify(p.mailing_address)
      : (p[field] ?? null),
  );
}

export function toResponse(row: PropertyRow): PropertyResponse {
  const out: PropertyResponse = {
    id: Number(row.id),
    status: row.status,
    results: row.results,
    truncated: row.people_total !== null,
    property: propertyOf(row),
    created_at: iso(row.created_at),
  };
  if (row.people_total !== null) out.people_total = row.people_total;
  if (row.owner_facts?.owners_of_record) out.owners_of_record = row.owner_facts.owners_of_record;
  if (row.owner_facts?.mailing_address) out.mailing_address = row.owner_facts.mailing_address;
  if (row.error) out.error = row.error;
  if (row.completed_at) out.completed_at = iso(row.completed_at);
  return out;
}

export interface NewProperty {
  accountId: string;
  /** The API client that submitted it (the token's client_id): usage is counted per client. */
  clientId?: string;
  property: Property;
}

const COMPLETE_PROPERTIES = prepared(`
WITH done AS (
  UPDATE properties p SET status = u.status, results = u.results, error = u.error,
    people_total = u.people_total, owner_facts = u.owner_facts, completed_at = now()
  FROM ROWS FROM (unnest($1::bigint[]), unnest($2::text[]), ${jsonDocumentsSql('$3')}, unnest($4::text[]),
                  unnest($5::int[]), ${jsonDocumentsSql('$6')}, unnest($7::int[]))
    AS u(id, status, results, error, people_total, owner_facts, phones)
  WHERE p.id = u.id AND p.status = 'pending'
  RETURNING ${UNCHANGED_ALIASED_COLUMNS}, p.client_id AS usage_client, u.status AS usage_status,
            u.phones AS usage_phones
), counted AS (
  ${COUNT_SYNC_USAGE}
)
SELECT ${UNCHANGED_COLUMNS} FROM done`);

/** The request's columns as unnest's: `c0 … c7`, the mailing address cast to jsonb. */
const REQUEST_VALUES = REQUEST_FIELDS.map((f, i) => (f === 'mailing_address' ? `c${i}::jsonb` : `c${i}`)).join(', ');
const REQUEST_ARRAYS = REQUEST_FIELDS.map((_, i) => `$${i + 2}::text[]`).join(', ');
const REQUEST_NAMES = REQUEST_FIELDS.map((_, i) => `c${i}`).join(', ');

const INSERT_PROPERTIES = prepared(`
INSERT INTO properties (account_id, client_id, ${REQUEST_FIELDS.join(', ')})
SELECT a, k, ${REQUEST_VALUES}
  FROM unnest($1::text[], $${REQUEST_FIELDS.length + 2}::text[], ${REQUEST_ARRAYS})
    WITH ORDINALITY AS t(a, k, ${REQUEST_NAMES}, n)
 ORDER BY n
RETURNING ${COLUMNS}`);

/** Stores the properties in one statement; rows come back in the order given. */
export async function insertProperties(sql: Sql, items: NewProperty[]): Promise<PropertyRow[]> {
  const values = items.map(({ property }) => requestValues(property));
  // Ids come from the sequence in the order the ordered SELECT feeds the rows in, so sorting
  // the returned rows by id restores the input order.
  const { rows } = await sql.query<PropertyRow>(INSERT_PROPERTIES, [
    items.map((i) => i.accountId),
    ...REQUEST_FIELDS.map((_, f) => values.map((v) => v[f])),
    items.map((i) => i.clientId ?? null),
  ]);
  return rows.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

export async function insertProperty(sql: Sql, accountId: string, property: Property): Promise<PropertyRow> {
  const [row] = await insertProperties(sql, [{ accountId, property }]);
  return row!;
}

export async function getProperty(
  sql: Sql,
  batchRows: BatchRows,
  accountId: string,
  id: string,
): Promise<PropertyRow | undefined> {
  const { rows } = await sql.query<StoredRow>(`${SELECT_PROPERTIES} WHERE p.id = $1 AND p.account_id = $2`, [
    id,
    accountId,
  ]);
  return (await withOutcomes(sql, batchRows, rows))[0];
}

/** The account's rows of these ids, in the order given (an id the account lacks is left out). */
export async function propertiesByIds(
  sql: Sql,
  batchRows: BatchRows,
  accountId: string,
  ids: readonly string[],
): Promise<PropertyRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql.query<StoredRow>(
    `${SELECT_PROPERTIES} WHERE p.id = ANY($1::bigint[]) AND p.account_id = $2`,
    [ids, accountId],
  );
  const byId = new Map((await withOutcomes(sql, batchRows, rows)).map((r) => [String(r.id), r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Newest first; `beforeId` is the keyset cursor (exclusive). */
export async function listProperties(
  sql: Sql,
  batchRows: BatchRows,
  accountId: string,
  limit: number,
  beforeId?: string,
): Promise<PropertyRow[]> {
  const { rows } = await sql.query<StoredRow>(
    `${SELECT_PROPERTIES}
     WHERE p.account_id = $1 AND ($2::bigint IS NULL OR p.id < $2::bigint)
     ORDER BY p.id DESC LIMIT $3`,
    [accountId, beforeId ?? null, limit],
  );
  return withOutcomes(sql, batchRows, rows);
}

/**
 * Erases the property and its results; false when the account has no such property. A
 * batch row is erased through its batch (BatchRows.erase: under the batch's lock, its
 * outcome goes too, and a row still waiting for its trace is counted in the batch, which
 * completes if that was the last row it waited for).
 */
export async function eraseProperty(
  db: Database,
  batchRows: BatchRows,
  accountId: string,
  id: string,
): Promise<boolean> {
  let settledBatchId: string | undefined;
  const erased = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ batch_id: string | null; row_number: number | null }>(
      `SELECT batch_id, row_number FROM properties WHERE id = $1 AND account_id = $2`,
      [id, accountId],
    );
    const row = rows[0];
    if (!row) return false;
    const remove = async () => {
      const deleted = await tx.query<{ status: string }>(
        `DELETE FROM properties WHERE id = $1 AND account_id = $2 RETURNING status`,
        [id, accountId],
      );
      const status = deleted.rows[0]?.status;
      return status === undefined ? undefined : { pending: status === 'pending' };
    };
    if (row.batch_id === null || row.row_number === null) return (await remove()) !== undefined;
    const batchRow = await batchRows.erase(tx, { batchId: row.batch_id, rowNumber: row.row_number }, remove);
    if (batchRow.settled) settledBatchId = row.batch_id;
    return batchRow.removed;
  });
  if (settledBatchId !== undefined) await batchRows.settled(settledBatchId);
  return erased;
}

export type StoredOutcome = {
  status: Exclude<PropertyResponse['status'], 'pending'>;
  results: TraceResult[];
  error?: string;
  /** TraceOutcome.matched: present only when `results` is not everyone who matched. */
  matched?: number;
} & OwnerFacts;

/**
 * Stores each outcome once, in one statement: only a pending row changes, so a redelivered
 * job cannot overwrite a result. The same statement counts the rows it changed into the
 * usage of their account and client (@skiptrace/usage: sync traces, hits, misses, phones),
 * so a result is counted exactly when it is stored. Returns each row as stored (changed or
 * not), in the order given, or undefined where the property was erased.
 */
export async function completeProperties(
  sql: Sql,
  items: { id: string; outcome: StoredOutcome }[],
): Promise<(PropertyRow | undefined)[]> {
  // The outcome columns just written are not read back: the caller has them, and the
  // results document is most of a row's bytes (read out, then JSON.parse again). The
  // documents (results, owner facts) go as one text each (jsonDocumentsParam), the rest as
  // arrays zipped by position.
  const { rows } = await sql.query<Omit<PropertyRow, 'status' | 'results' | 'error' | 'people_total' | 'owner_facts'>>(
    COMPLETE_PROPERTIES,
    [
      items.map((i) => i.id),
      items.map((i) => i.outcome.status),
      jsonDocumentsParam(items.map((i) => JSON.stringify(i.outcome.results))),
      items.map((i) => i.outcome.error ?? null),
      items.map((i) => i.outcome.matched ?? null),
      jsonDocumentsParam(
        items.map((i) => {
          const facts = ownerFactsOf(i.outcome);
          return facts === null ? null : JSON.stringify(facts);
        }),
      ),
      items.map((i) => phonesIn(i.outcome.results)),
    ],
  );
  const outcomes = new Map(items.map((i) => [i.id, i.outcome]));
  const now = Date.now();
  const byId = new Map<string, PropertyRow>(
    rows.map((row) => {
      const outcome = outcomes.get(row.id)!;
      const { status, results, error = null, matched } = outcome;
      // Counted here, where a result is stored once: a redelivery changes no row.
      recordTrace(status, (now - new Date(row.created_at).getTime()) / 1000);
      return [
        row.id,
        { ...row, status, results, error, people_total: matched ?? null, owner_facts: ownerFactsOf(outcome) },
      ];
    }),
  );
  const missing = items.filter((i) => !byId.has(i.id)).map((i) => i.id);
  if (missing.length > 0) {
    // Already finished (a redelivery) or erased: report the row as it is (a job's row, not a batch row).
    const found = await sql.query<PropertyRow>(`SELECT ${COLUMNS} FROM properties WHERE id = ANY($1::bigint[])`, [
      missing,
    ]);
    for (const row of found.rows) byId.set(row.id, row);
  }
  return items.map((i) => byId.get(i.id));
}

export async function completeProperty(sql: Sql, id: string, outcome: StoredOutcome): Promise<PropertyRow | undefined> {
  const [row] = await completeProperties(sql, [{ id, outcome }]);
  return row;
}
