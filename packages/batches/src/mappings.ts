/**
 * Saved column mappings (migration 130): an account's mapping for a header set, chosen again
 * when a file with the same columns comes back (the same folded names, in any order). Saved
 * by an upload or preview that asks for it (`?save_mapping=true`), listed and deleted over
 * the API.
 */
import { createHash } from 'node:crypto';
import type { Database } from '@skiptrace/storage';
import { foldName, MAPPING_FIELDS, type ColumnMap, type Field } from './columns.ts';

/** The key of a header set: its folded names, de-duplicated and sorted. */
export function headerKey(columns: readonly string[]): string {
  const names = [...new Set(columns.map(foldName).filter((n) => n !== ''))].sort();
  return createHash('sha256').update(names.join('\n')).digest('hex');
}

export interface SavedMapping {
  id: string;
  columns: string[];
  map: ColumnMap;
  created_at: string;
  updated_at: string;
}

interface MappingRow {
  id: string;
  columns: string[];
  map: ColumnMap;
  created_at: Date;
  updated_at: Date;
}

const toSaved = (r: MappingRow): SavedMapping => ({
  id: String(r.id),
  columns: r.columns,
  map: r.map,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

/** Only the fields a mapping may name, each to a column of the header (stale names drop out). */
function cleanMap(columns: readonly string[], map: ColumnMap): ColumnMap {
  const out: ColumnMap = {};
  for (const field of MAPPING_FIELDS) {
    const column = map[field as Field];
    if (column !== undefined && columns.includes(column)) out[field as Field] = column;
  }
  return out;
}

export const columnMappings = {
  async find(db: Database, accountId: string, columns: readonly string[]): Promise<SavedMapping | undefined> {
    const { rows } = await db.query<MappingRow>(
      `SELECT id, columns, map, created_at, updated_at FROM column_mappings WHERE account_id = $1 AND header_key = $2`,
      [accountId, headerKey(columns)],
    );
    return rows[0] ? toSaved(rows[0]) : undefined;
  },

  async save(db: Database, accountId: string, columns: readonly string[], map: ColumnMap): Promise<SavedMapping> {
    const { rows } = await db.query<MappingRow>(
      `INSERT INTO column_mappings (account_id, header_key, columns, map) VALUES ($1, $2, $3::jsonb, $4::jsonb)
       ON CONFLICT (account_id, header_key) DO UPDATE SET columns = EXCLUDED.columns, map = EXCLUDED.map, updated_at = now()
       RETURNING id, columns, map, created_at, updated_at`,
      [accountId, headerKey(columns), JSON.stringify(columns), JSON.stringify(cleanMap(columns, map))],
    );
    return toSaved(rows[0]!);
  },

  async list(db: Database, accountId: string): Promise<SavedMapping[]> {
    const { rows } = await db.query<MappingRow>(
      `SELECT id, columns, map, created_at, updated_at FROM column_mappings WHERE account_id = $1 ORDER BY updated_at DESC, id DESC LIMIT 500`,
      [accountId],
    );
    return rows.map(toSaved);
  },

  async remove(db: Database, accountId: string, id: string): Promise<boolean> {
    const { rowCount } = await db.query(`DELETE FROM column_mappings WHERE account_id = $1 AND id = $2`, [
      accountId,
      id,
    ]);
    return (rowCount ?? 0) > 0;
  },
};
