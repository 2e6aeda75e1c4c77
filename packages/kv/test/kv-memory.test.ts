import { describe, expect, it } from '@jest/globals';
import { createMemoryKeyValue } from '../src/kv-memory.ts';
import { createKeyValue } from '../src/index.ts';
import { describeKvContract } from './kv.contract.ts';
import { manualClock } from './manual-clock.ts';

const clock = manualClock();
const shared = createMemoryKeyValue({ now: clock.now });

describeKvContract({
  kind: 'memory',
  open: () => shared,
  async passTime(ms, check) {
    clock.advance(ms);
    if (!(await check())) throw new Error(`condition not met after advancing the clock ${ms} ms`);
  },
});

describe('memory KeyValueStore timing (manual clock)', () => {
  it('expires a key exactly at its ttl', async () => {
    const time = manualClock();
    const kv = createMemoryKeyValue({ now: time.now });
    await kv.set('k', 'v', { ttlMs: 1000 });
    time.advance(999);
    await expect(kv.get('k')).resolves.toBe('v');
    await expect(kv.ttl('k')).resolves.toBe(1);
    time.advance(1);
    await expect(kv.get('k')).resolves.toBeNull();
    await expect(kv.set('k', 'again', { onlyIfAbsent: true })).resolves.toBe(true);
  });

  it('keeps the window of the first hit and restarts after it', async () => {
    const time = manualClock();
    const kv = createMemoryKeyValue({ now: time.now });
    await expect(kv.hit('h', 1000)).resolves.toEqual({ count: 1, resetMs: 1000 });
    time.advance(400);
    await expect(kv.hit('h', 1000)).resolves.toEqual({ count: 2, resetMs: 600 });
    time.advance(600);
    await expect(kv.hit('h', 1000)).resolves.toEqual({ count: 1, resetMs: 1000 });
  });

  it('refreshes the expiry of a set on each add with a ttl', async () => {
    const time = manualClock();
    const kv = createMemoryKeyValue({ now: time.now });
    await kv.addToSet('s', 'a', 1000);
    time.advance(800);
    await kv.addToSet('s', 'b', 1000);
    time.advance(800);
    expect((await kv.members('s')).sort()).toEqual(['a', 'b']);
    time.advance(200);
    await expect(kv.members('s')).resolves.toEqual([]);
  });

  it('is what createKeyValue returns without a Redis URL', () => {
    expect(createKeyValue({}).kind).toBe('memory');
  });
});
