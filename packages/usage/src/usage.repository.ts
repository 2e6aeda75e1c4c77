/**
 * Reads of the usage counters and the accounts' monthly quotas (migration 150_usage.sql).
 * Counting itself happens in the statements that store work (usage-sql.ts).
 */
import type { Quotas, QuotaUpdate, UsageCounts } from '@skiptrace/contracts';
import { prepared, type Sql } from '@skiptrace/storage';
import { USAGE_COLUMNS } from './usage-sql.ts';

export type UsageRow = UsageCounts & { day?: string; client_id?: string | null };

/** Usage of the month so far, and the account's quotas; undefined when it has none. */
export interface QuotaStatus {
  quotas: Quotas;
  hits: number;
  rows: number;
  /** First day of the month (UTC), YYYY-MM-DD. */
  month: string;
  /** Start of the next month (UTC). */
  resetsAt: Date;
  /** Quotas whose 80 % warning went out this month. */
  warned: Set<string>;
}

/** The UTC month containing `now`: its first day and the next month's start. */
export function monthOf(now = new Date()): { month: string; resetsAt: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const resetsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { month: start.toISOString().slice(0, 10), resetsAt };
}

const SUMS = USAGE_COLUMNS.map((c) => `coalesce(sum(${c}), 0)::bigint AS ${c}`).join(', ');

function counts(row: Record<string, unknown>): UsageCounts {
  return Object.fromEntries(USAGE_COLUMNS.map((c) => [c, Number(row[c] ?? 0)])) as UsageCounts;
}

const quotasOf = (row: { monthly_hits: string | null; monthly_rows: string | null } | undefined): Quotas => ({
  monthly_hits: row?.monthly_hits == null ? null : Number(row.monthly_hits),
  monthly_rows: row?.monthly_rows == null ? null : Number(row.monthly_rows),
});

/** Quotas and this month's usage of several accounts ($1), the month starting $2. */
const QUOTA_STATUSES = prepared(`
SELECT q.account_id, q.monthly_hits, q.monthly_rows, coalesce(sum(u.hits), 0)::bigint AS hits,
       coalesce(sum(u.sync_traces + u.batch_rows), 0)::bigint AS rows,
       (SELECT array_agg(w.quota) FROM quota_warnings w
         WHERE w.account_id = q.account_id AND w.month = $2::date) AS warned
  FROM account_quotas q
  LEFT JOIN usage_daily u ON u.account_id = q.account_id AND u.day >= $2::date
 WHERE q.account_id = ANY($1::text[]) AND (q.monthly_hits IS NOT NULL OR q.monthly_rows IS NOT NULL)
 GROUP BY q.account_id, q.monthly_hits, q.monthly_rows`);

export function createUsage(sql: Sql) {
  /** Per day or per client between two UTC days (inclusive), with the totals. */
  async function read(
    accountId: string,
    range: { from: string; to: string; groupBy: 'day' | 'client' },
  ): Promise<{ totals: UsageCounts; data: UsageRow[] }> {
    const key = range.groupBy === 'day' ? 'day' : 'client_id';
    const { rows } = await sql.query<Record<string, unknown>>(
      `SELECT ${key === 'day' ? `to_char(day, 'YYYY-MM-DD')` : 'client_id'} AS key, ${SUMS}
         FROM usage_daily WHERE account_id = $1 AND day BETWEEN $2::date AND $3::date
        GROUP BY 1 ORDER BY 1`,
      [accountId, range.from, range.to],
    );
    const data = rows.map((row): UsageRow => {
      const keyValue = row.key as string;
      return key === 'day'
        ? { day: keyValue, ...counts(row) }
        : { client_id: keyValue === '' ? null : keyValue, ...counts(row) };
    });
    const totals = counts({});
    for (const row of data) for (const c of USAGE_COLUMNS) totals[c] += row[c];
    return { totals, data };
  }

  async function quotas(accountId: string): Promise<Quotas> {
    const { rows } = await sql.query<{ monthly_hits: string | null; monthly_rows: string | null }>(
      `SELECT monthly_hits, monthly_rows FROM account_quotas WHERE account_id = $1`,
      [accountId],
    );
    return quotasOf(rows[0]);
  }

  /** Sets the fields given (null removes a quota); returns the quotas now. */
  async function setQuotas(accountId: string, update: QuotaUpdate): Promise<Quotas> {
    const { rows } = await sql.query<{ monthly_hits: string | null; monthly_rows: string | null }>(
      `INSERT INTO account_quotas (account_id, monthly_hits, monthly_rows) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE SET
         monthly_hits = CASE WHEN $4 THEN EXCLUDED.monthly_hits ELSE account_quotas.monthly_hits END,
         monthly_rows = CASE WHEN $5 THEN EXCLUDED.monthly_rows ELSE account_quotas.monthly_rows END,
         updated_at = now()
       RETURNING monthly_hits, monthly_rows`,
      [
        accountId,
        update.monthly_hits ?? null,
        update.monthly_rows ?? null,
        update.monthly_hits !== undefined,
        update.monthly_rows !== undefined,
      ],
    );
    return quotasOf(rows[0]);
  }

  /** The account's quotas with the month's usage, in one statement; undefined without quotas. */
  async function status(accountId: string, now = new Date()): Promise<QuotaStatus | undefined> {
    return (await statuses([accountId], now)).get(accountId);
  }

  /**
   * `status` of several accounts in one statement (the quota guard's concurrent checks);
   * accounts without quotas are absent from the map.
   */
  async function statuses(accountIds: readonly string[], now = new Date()): Promise<Map<string, QuotaStatus>> {
    const { month, resetsAt } = monthOf(now);
    const { rows } = await sql.query<{
      account_id: string;
      monthly_hits: string | null;
      monthly_rows: string | null;
      hits: string;
      rows: string;
      warned: string[] | null;
    }>(QUOTA_STATUSES, [[...new Set(accountIds)], month]);
    return new Map(
      rows.map((row) => [
        row.account_id,
        {
          quotas: quotasOf(row),
          hits: Number(row.hits),
          rows: Number(row.rows),
          month,
          resetsAt,
          warned: new Set(row.warned ?? []),
        },
      ]),
    );
  }

  /**
   * Records that the 80 % warning of `quota` went out this month; true only for the first
   * caller (the row's primary key decides).
   */
  async function claimWarning(accountId: string, month: string, quota: 'hits' | 'rows'): Promise<boolean> {
    const { rows } = await sql.query(
      `INSERT INTO quota_warnings (account_id, month, quota) VALUES ($1, $2::date, $3)
       ON CONFLICT DO NOTHING RETURNING quota`,
      [accountId, month, quota],
    );
    return rows.length > 0;
  }

  return { read, quotas, setQuotas, status, statuses, claimWarning };
}

export type UsageStore = ReturnType<typeof createUsage>;
