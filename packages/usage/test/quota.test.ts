/**
 * The quota guard's reads (quota.ts): concurrent checks share one statement, and a check
 * never uses a state read before it arrived, so a quota set elsewhere (the CLI, another
 * replica) applies to the next request.
 */
import { expect, it } from '@jest/globals';
import type { MessageBus } from '@skiptrace/messaging';
import { silentLogger } from '@skiptrace/runtime';
import { createQuotaGuard } from '../src/quota.ts';
import { monthOf, type QuotaStatus, type UsageStore } from '../src/usage.repository.ts';

function fakeUsage(accounts: Record<string, { monthly_hits: number | null; hits: number }>) {
  const reads: string[][] = [];
  const statuses = async (accountIds: readonly string[]): Promise<Map<string, QuotaStatus>> => {
    reads.push([...accountIds]);
    await new Promise((resolve) => setImmediate(resolve));
    const found = new Map<string, QuotaStatus>();
    for (const id of accountIds) {
      const account = accounts[id];
      if (!account || account.monthly_hits === null) continue;
      found.set(id, {
        quotas: { monthly_hits: account.monthly_hits, monthly_rows: null },
        hits: account.hits,
        rows: account.hits,
        ...monthOf(),
        warned: new Set(['hits']),
      });
    }
    return found;
  };
  const usage = { statuses, claimWarning: async () => false } as unknown as UsageStore;
  return { usage, accounts, reads };
}

const bus = { publish: async () => {} } as unknown as MessageBus;

it('reads concurrent checks together, a few statements for many requests', async () => {
  const store = fakeUsage({ capped: { monthly_hits: 10, hits: 10 } });
  const guard = createQuotaGuard({ usage: store.usage, bus, logger: silentLogger() });
  const outcomes = await Promise.allSettled(
    Array.from({ length: 40 }, (_, i) => guard.check(i % 4 === 0 ? 'capped' : `free-${i % 3}`)),
  );
  expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(10);
  expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason)).toEqual(
    Array.from({ length: 10 }, () => expect.objectContaining({ code: 1301, status: 429 })),
  );
  // The first check alone (nothing was under way), then the rest in one statement.
  expect(store.reads.length).toBeLessThanOrEqual(3);
  expect(store.reads.flat().length).toBeGreaterThanOrEqual(4);
});

it('applies a quota set between two requests to the second', async () => {
  const store = fakeUsage({ a: { monthly_hits: null, hits: 7 } });
  const guard = createQuotaGuard({ usage: store.usage, bus, logger: silentLogger() });
  await guard.check('a');
  store.accounts.a = { monthly_hits: 7, hits: 7 };
  await expect(guard.check('a')).rejects.toMatchObject({ code: 1301, status: 429 });
  store.accounts.a = { monthly_hits: null, hits: 7 };
  await guard.check('a');
  expect(store.reads).toEqual([['a'], ['a'], ['a']]);
});
