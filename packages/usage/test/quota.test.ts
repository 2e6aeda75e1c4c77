/**
 * The quota guard's reuse of an account's quota state (quota.ts): an account without quotas
 * is read once per QUOTA_CACHE_MS, sync traces of an account with quotas reuse the state only
 * while far from every limit, batch uploads and near-limit checks always read, concurrent
 * checks share one read, and `forget` makes the next check read.
 */
import { afterEach, expect, it, jest } from '@jest/globals';
import type { MessageBus } from '@skiptrace/messaging';
import { ApiError, silentLogger } from '@skiptrace/runtime';
import { createQuotaGuard, QUOTA_CACHE_MS } from '../src/quota.ts';
import { monthOf, type QuotaStatus, type UsageStore } from '../src/usage.repository.ts';

function fakeUsage(initial: Record<string, { monthly_hits: number | null; hits: number }>) {
  const accounts = { ...initial };
  let reads = 0;
  const status = async (accountId: string): Promise<QuotaStatus | undefined> => {
    reads += 1;
    await new Promise((resolve) => setImmediate(resolve));
    const account = accounts[accountId];
    if (!account || account.monthly_hits === null) return undefined;
    return {
      quotas: { monthly_hits: account.monthly_hits, monthly_rows: null },
      hits: account.hits,
      rows: account.hits,
      ...monthOf(),
      warned: new Set(['hits']),
    };
  };
  const usage = { status, claimWarning: async () => false } as unknown as UsageStore;
  return { usage, accounts, reads: () => reads };
}

const bus = { publish: async () => {} } as unknown as MessageBus;

afterEach(() => {
  jest.useRealTimers();
});

it('reads an account without quotas once per QUOTA_CACHE_MS, sharing a read in flight', async () => {
  jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
  const store = fakeUsage({});
  const guard = createQuotaGuard({ usage: store.usage, bus, logger: silentLogger() });
  await Promise.all(Array.from({ length: 20 }, () => guard.check('a', true)));
  expect(store.reads()).toBe(1);
  await guard.check('a', false);
  expect(store.reads()).toBe(1);
  jest.advanceTimersByTime(QUOTA_CACHE_MS + 1);
  await guard.check('a', true);
  expect(store.reads()).toBe(2);
});

it('reuses a quota state for sync traces only while under half of the limit, counting them', async () => {
  const store = fakeUsage({ a: { monthly_hits: 10, hits: 0 } });
  const guard = createQuotaGuard({ usage: store.usage, bus, logger: silentLogger() });
  for (let i = 0; i < 4; i++) await guard.check('a', true);
  // Read, then reused while used (0) + let through + 1 stays under 5.
  expect(store.reads()).toBe(1);
  await guard.check('a', true);
  expect(store.reads()).toBe(2);
  // A batch upload always reads.
  await guard.check('a', false);
  expect(store.reads()).toBe(3);
});

it('refuses at the limit from a fresh read, and forget applies a quota change at once', async () => {
  const store = fakeUsage({ a: { monthly_hits: null, hits: 7 } });
  const guard = createQuotaGuard({ usage: store.usage, bus, logger: silentLogger() });
  await guard.check('a', true);
  store.accounts.a = { monthly_hits: 7, hits: 7 };
  // Still the state read before the quota was set...
  await guard.check('a', true);
  // ...until the usage API tells the guard.
  guard.forget('a');
  await expect(guard.check('a', true)).rejects.toBeInstanceOf(ApiError);
  await expect(guard.check('a', true)).rejects.toMatchObject({ code: 1301, status: 429 });
  expect(store.reads()).toBe(3);
});
