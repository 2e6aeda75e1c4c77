/**
 * `skiptrace quotas show|set --account A`: an account's monthly quotas (hits, rows), in the
 * store directly or through the running one-process system (store.ts). The API's
 * PATCH /usage/quotas does the same for an account's admin.
 */
import { createAuditLog } from '@skiptrace/audit';
import type { Quotas, QuotaUpdate } from '@skiptrace/contracts';
import { createUsage } from '@skiptrace/usage';
import { optionalString, requireString, UsageError, type Command, type Values } from '../command.ts';
import { callSystem, withAccounts } from '../store.ts';

/** `--hits 1000`, `--hits none` (removes the quota), or absent (unchanged). */
function quotaFlag(values: Values, name: string): number | null | undefined {
  const raw = optionalString(values, name);
  if (raw === undefined) return undefined;
  if (raw === 'none') return null;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isSafeInteger(value) || value < 0)
    throw new UsageError(`--${name} must be an integer ≥ 0, or none`);
  return value;
}

const print = (quotas: Quotas) => process.stdout.write(`${JSON.stringify({ quotas }, null, 2)}\n`);

export const quotasShow: Command = {
  name: 'quotas show',
  summary: "Print an account's monthly quotas (null: none)",
  options: { account: { type: 'string', value: 'A', description: 'account id (required)' } },
  async run({ values, env }) {
    const accountId = requireString(values, 'account');
    const path = `/quotas/${encodeURIComponent(accountId)}`;
    print(
      await withAccounts(
        env,
        (_accounts, db) => createUsage(db).quotas(accountId),
        async (system) => (await callSystem<{ quotas: Quotas }>(system, 'GET', path)).quotas,
      ),
    );
    return 0;
  },
};

export const quotasSet: Command = {
  name: 'quotas set',
  summary: "Set or remove an account's monthly quotas: hits (results with a phone) and rows (traces and batch rows)",
  options: {
    account: { type: 'string', value: 'A', description: 'account id (required)' },
    hits: { type: 'string', value: 'N|none', description: 'hits per calendar month (UTC); none removes it' },
    rows: { type: 'string', value: 'N|none', description: 'sync traces + batch rows per month; none removes it' },
  },
  notes: [
    'Past a quota, traces and batch uploads answer 429 (code 1301); at 80 % the account gets one quota.warning webhook event per month.',
  ],
  async run({ values, env }) {
    const accountId = requireString(values, 'account');
    const update: QuotaUpdate = {};
    const hits = quotaFlag(values, 'hits');
    const rows = quotaFlag(values, 'rows');
    if (hits !== undefined) update.monthly_hits = hits;
    if (rows !== undefined) update.monthly_rows = rows;
    if (hits === undefined && rows === undefined) throw new UsageError('give --hits, --rows or both');
    const path = `/quotas/${encodeURIComponent(accountId)}`;
    print(
      await withAccounts(
        env,
        async (accounts, db) => {
          if (!(await accounts.findAccount(accountId))) throw new UsageError(`no account ${accountId}`);
          const usage = createUsage(db);
          const before = await usage.quotas(accountId);
          const after = await usage.setQuotas(accountId, update);
          await createAuditLog(db).record({
            accountId,
            action: 'quota.changed',
            actor: { type: 'system' },
            target: { type: 'account', id: accountId },
            details: { before, after, via: 'cli' },
          });
          return after;
        },
        async (system) => (await callSystem<{ quotas: Quotas }>(system, 'PUT', path, update)).quotas,
      ),
    );
    return 0;
  },
};
