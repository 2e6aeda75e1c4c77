import { describe, expect, it } from '@jest/globals';
import { createBatcher } from '../src/index.ts';

/** A controllable run(): records each batch and resolves when told to. */
function recorder() {
  const batches: number[][] = [];
  const release: (() => void)[] = [];
  const run = async (items: number[]) => {
    batches.push(items);
    await new Promise<void>((resolve) => release.push(resolve));
    return items.map((n) => n * 10);
  };
  return { batches, release, run };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createBatcher', () => {
  it('runs a lone item at once, by itself', async () => {
    const batch = createBatcher(async (items: number[]) => items.map((n) => n + 1), { maxBatch: 10 });
    await expect(batch(1)).resolves.toBe(2);
  });

  it('groups items submitted in the same turn and answers each caller with its own result', async () => {
    const seen: number[][] = [];
    const batch = createBatcher(
      async (items: number[]) => {
        seen.push(items);
        return items.map((n) => n * 2);
      },
      { maxBatch: 10 },
    );
    await expect(Promise.all([batch(1), batch(2), batch(3)])).resolves.toEqual([2, 4, 6]);
    expect(seen).toEqual([[1, 2, 3]]);
  });

  it('queues items while maxConcurrent batches run, then sends them together, at most maxBatch at a time', async () => {
    const r = recorder();
    const batch = createBatcher(r.run, { maxBatch: 3, maxConcurrent: 1 });
    const first = batch(1);
    await tick();
    expect(r.batches).toEqual([[1]]);
    const rest = [2, 3, 4, 5, 6, 7].map((n) => batch(n));
    await tick();
    expect(r.batches).toEqual([[1]]); // still busy with the first batch
    r.release.shift()!();
    await expect(first).resolves.toBe(10);
    await tick();
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
    r.release.shift()!();
    await tick();
    await tick();
    r.release.shift()!();
    await expect(Promise.all(rest)).resolves.toEqual([20, 30, 40, 50, 60, 70]);
    expect(r.batches).toEqual([[1], [2, 3, 4], [5, 6, 7]]);
  });

  it('runs up to maxConcurrent batches side by side', async () => {
    const r = recorder();
    const batch = createBatcher(r.run, { maxBatch: 2, maxConcurrent: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => batch(n));
    await tick();
    expect(r.batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    r.release.shift()!();
    await tick();
    await tick();
    expect(r.batches).toEqual([[1, 2], [3, 4], [5]]);
    r.release.forEach((release) => release());
    await tick();
    r.release.forEach((release) => release());
    await expect(Promise.all(all)).resolves.toEqual([10, 20, 30, 40, 50]);
  });

  it('fails every item of a batch whose run throws, and carries on with the next batch', async () => {
    let calls = 0;
    const batch = createBatcher(
      async (items: number[]) => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
        return items;
      },
      { maxBatch: 10, maxConcurrent: 1 },
    );
    const failed = [batch(1), batch(2)];
    await expect(failed[0]).rejects.toThrow('database down');
    await expect(failed[1]).rejects.toThrow('database down');
    await expect(batch(3)).resolves.toBe(3);
  });

  it('fails only the item whose result is an Error', async () => {
    const batch = createBatcher(async (items: number[]) => items.map((n) => (n === 2 ? new Error(`bad ${n}`) : n)), {
      maxBatch: 10,
    });
    const results = await Promise.allSettled([batch(1), batch(2), batch(3)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('bad 2'));
  });

  it('rejects every item when run returns the wrong number of results', async () => {
    const batch = createBatcher(async () => [1], { maxBatch: 10 });
    await expect(Promise.all([batch(1), batch(2)])).rejects.toThrow('batch returned 1 results for 2 items');
  });
});
