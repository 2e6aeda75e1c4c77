/**
 * Planner statistics after a bulk load. A table filled by COPY has none until ANALYZE
 * runs: autovacuum does that minutes later at best (and is off on some hosts), and until
 * then the planner guesses. The guess that hurt: right after a 1,000,000-row contact
 * import, `address_key = ANY($1)` with 500 keys was estimated to match every row, and each
 * batch chunk's candidate lookup became a sequential scan of `contacts` (6,609 scans, 2.2
 * billion tuples read; the user's first 1 M-row batch took 380 s; issue #12).
 *
 * So every bulk writer calls analyzeAfterLoad when it is done. It applies autovacuum's
 * own rule (analyze once the rows changed since the last ANALYZE exceed 50 + 10 % of the
 * table) to those changes — the server's count (pg_stat_user_tables.n_mod_since_analyze),
 * or the rows the caller wrote when the count has not caught up with them yet — and always
 * analyzes a table that was never analyzed: a small batch into a large table costs
 * nothing, a load that changes the table's shape refreshes it at once, and small loads
 * that add up to a tenth of the table refresh it too (counting only each load's own rows,
 * a table that grew by loads of a twentieth each was never analyzed again). Statements
 * that read a new batch's rows must not depend on them being in the statistics, though:
 * until a tenth of the table has changed they are not (export.ts OUTCOME_JOIN).
 * ANALYZE samples at most 30,000 rows (default_statistics_target 100), so it takes about
 * the same time on 1 M rows as on 100 M (0.2–0.6 s here).
 */
import type { Sql } from './database.port.ts';

/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor, PostgreSQL's defaults. */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;

const SAFE_TABLE = /^[a-z_][a-z0-9_]*$/;

/**
 * Runs `ANALYZE table` when `rowsWritten` rows is enough to change its statistics by
 * autovacuum's rule, or the table has none yet. Returns whether it analyzed. The caller
 * passes a fixed table name (checked: lower-case identifier).
 */
export async function analyzeAfterLoad(db: Sql, table: string, rowsWritten: number): Promise<boolean> {
  if (!SAFE_TABLE.test(table)) throw new Error(`analyzeAfterLoad: not a plain table name: ${table}`);
  if (rowsWritten <= 0) return false;
  // reltuples is -1 until the first ANALYZE or VACUUM (PostgreSQL 14 and later; 0 before).
  // The server's count of changes lags a committing backend's by up to a second (its
  // statistics are flushed when it goes idle), hence the larger of the two.
  const { rows } = await db.query<{ reltuples: number; changed: number }>(
    `SELECT c.reltuples::float8 AS reltuples, coalesce(s.n_mod_since_analyze, 0)::float8 AS changed
       FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
      WHERE c.oid = to_regclass($1)`,
    [table],
  );
  const row = rows[0];
  if (row === undefined) throw new Error(`analyzeAfterLoad: no table ${table}`);
  const { reltuples } = row;
  const changed = Math.max(rowsWritten, row.changed);
  const stale = reltuples <= 0 || changed >= ANALYZE_THRESHOLD + ANALYZE_SCALE_FACTOR * reltuples;
  if (stale) await db.query(`ANALYZE ${table}`);
  return stale;
}
