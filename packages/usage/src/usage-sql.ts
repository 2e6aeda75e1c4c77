/**
 * The one statement shape every counter goes through: an upsert that adds to the account's
 * and client's row of the UTC day. Callers put it in the statement (or transaction) that
 * stores the work itself, fed from what that statement stored, so a redelivered job, chunk
 * or attempt — which stores nothing — counts nothing, and two processes counting at once
 * add up (row lock on the day's row; groups in key order, so two statements never wait on
 * each other crosswise).
 */

/** The current UTC day, as the usage rows key it. */
export const UTC_DAY_SQL = `(now() AT TIME ZONE 'UTC')::date`;

export const USAGE_COLUMNS = ['sync_traces', 'batch_rows', 'hits', 'misses', 'phones', 'webhook_deliveries'] as const;

/**
 * `INSERT INTO usage_daily … <select> … ON CONFLICT … DO UPDATE` adding to the row. `select`
 * yields, in order: account_id, client_id ('' when unknown), day, then the six counters
 * (USAGE_COLUMNS); groups with nothing to add may be filtered out by the caller.
 */
export function usageUpsertSql(select: string): string {
  const add = USAGE_COLUMNS.map((c) => `${c} = usage_daily.${c} + EXCLUDED.${c}`).join(', ');
  return `INSERT INTO usage_daily (account_id, client_id, day, ${USAGE_COLUMNS.join(', ')})
    ${select}
    ORDER BY 1, 2, 3
    ON CONFLICT (account_id, day, client_id) DO UPDATE SET ${add}`;
}

/** The number of phones in a trace's results (people × their phones): hits have at least one. */
export function phonesIn(results: readonly { phones?: readonly unknown[] }[]): number {
  let n = 0;
  for (const person of results) n += person.phones?.length ?? 0;
  return n;
}
