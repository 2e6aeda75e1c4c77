import type { Property, PropertyResponse, TraceResult } from '@skiptrace/contracts';
import type { Sql } from '@skiptrace/storage';

/** A properties row as the store returns it (BIGINT as string, timestamps as Date). */
export interface PropertyRow {
  id: string;
  account_id: string;
  street_address: string;
  city: string;
  state: string;
  zip_code: string;
  first_name: string | null;
  last_name: string | null;
  batch_id: string | null;
  status: PropertyResponse['status'];
  error: string | null;
  results: TraceResult[];
  created_at: Date;
  completed_at: Date | null;
}

const COLUMNS =
  'id, account_id, street_address, city, state, zip_code, first_name, last_name, batch_id, status, error, results, created_at, completed_at';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/** The submitted property's columns of a row. */
export type PropertyColumns = Pick<
  PropertyRow,
  'street_address' | 'city' | 'state' | 'zip_code' | 'first_name' | 'last_name'
>;

export function propertyOf(row: PropertyColumns): Property {
  const p: Property = { street_address: row.street_address, city: row.city, state: row.state, zip_code: row.zip_code };
  if (row.first_name) p.first_name = row.first_name;
  if (row.last_name) p.last_name = row.last_name;
  return p;
}

export function toResponse(row: PropertyRow): PropertyResponse {
  const out: PropertyResponse = {
    id: Number(row.id),
    status: row.status,
    results: row.results,
    property: propertyOf(row),
    created_at: iso(row.created_at),
  };
  if (row.error) out.error = row.error;
  if (row.completed_at) out.completed_at = iso(row.completed_at);
  return out;
}

export async function insertProperty(sql: Sql, accountId: string, p: Property): Promise<PropertyRow> {
  const { rows } = await sql.query<PropertyRow>(
    `INSERT INTO properties (account_id, street_address, city, state, zip_code, first_name, last_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [accountId, p.street_address, p.city, p.state, p.zip_code, p.first_name ?? null, p.last_name ?? null],
  );
  return rows[0]!;
}

export async function getProperty(sql: Sql, accountId: string, id: string): Promise<PropertyRow | undefined> {
  const { rows } = await sql.query<PropertyRow>(`SELECT ${COLUMNS} FROM properties WHERE id = $1 AND account_id = $2`, [
    id,
    accountId,
  ]);
  return rows[0];
}

export async function getPropertyById(sql: Sql, id: string): Promise<PropertyRow | undefined> {
  const { rows } = await sql.query<PropertyRow>(`SELECT ${COLUMNS} FROM properties WHERE id = $1`, [id]);
  return rows[0];
}

/** Newest first; `beforeId` is the keyset cursor (exclusive). */
export async function listProperties(
  sql: Sql,
  accountId: string,
  limit: number,
  beforeId?: string,
): Promise<PropertyRow[]> {
  const { rows } = await sql.query<PropertyRow>(
    `SELECT ${COLUMNS} FROM properties
     WHERE account_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint)
     ORDER BY id DESC LIMIT $3`,
    [accountId, beforeId ?? null, limit],
  );
  return rows;
}

/** Erases the property and its results; true when something was deleted. */
export async function deleteProperty(sql: Sql, accountId: string, id: string): Promise<boolean> {
  const { rowCount } = await sql.query(`DELETE FROM properties WHERE id = $1 AND account_id = $2`, [id, accountId]);
  return rowCount > 0;
}

/**
 * Stores the outcome once: only a pending row changes, so a redelivered job cannot
 * overwrite a result. Returns the row as stored (changed or not), or undefined when erased.
 */
export async function completeProperty(
  sql: Sql,
  id: string,
  outcome: { status: Exclude<PropertyResponse['status'], 'pending'>; results: TraceResult[]; error?: string },
): Promise<PropertyRow | undefined> {
  const { rows } = await sql.query<PropertyRow>(
    `UPDATE properties SET status = $2, results = $3::jsonb, error = $4, completed_at = now()
     WHERE id = $1 AND status = 'pending' RETURNING ${COLUMNS}`,
    [id, outcome.status, JSON.stringify(outcome.results), outcome.error ?? null],
  );
  return rows[0] ?? (await getPropertyById(sql, id));
}
