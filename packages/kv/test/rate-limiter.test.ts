import { describe, expect, it } from '@jest/globals';
import { createMemoryKeyValue } from '../src/kv-memory.ts';
import { createRateLimiter } from '../src/rate-limiter.ts';
import { manualClock } from './manual-clock.ts';

function setUp(limit = 3, windowMs = 60_000) {
  const clock = manualClock();
  const kv = createMemoryKeyValue({ now: clock.now });
  return { clock, kv, limiter: createRateLimiter(kv, { limit, windowMs }) };
}

describe('createRateLimiter (fixed window)', () => {
  it('allows limit calls per window, then refuses until the window resets', async () => {
    const { clock, limiter } = setUp(3, 60_000);
    const ok = (remaining: number, resetMs: number) => ({ allowed: true, remaining, retryAfterMs: 0, resetMs });
    const refused = (ms: number) => ({ allowed: false, remaining: 0, retryAfterMs: ms, resetMs: ms });
    await expect(limiter.consume('ip:1')).resolves.toEqual(ok(2, 60_000));
    await expect(limiter.consume('ip:1')).resolves.toEqual(ok(1, 60_000));
    clock.advance(10_000);
    await expect(limiter.consume('ip:1')).resolves.toEqual(ok(0, 50_000));
    await expect(limiter.consume('ip:1')).resolves.toEqual(refused(50_000));
    clock.advance(49_999);
    await expect(limiter.consume('ip:1')).resolves.toEqual(refused(1));
    clock.advance(1);
    await expect(limiter.consume('ip:1')).resolves.toEqual(ok(2, 60_000));
  });

  it('counts calls made together with one store hit, each with its own place in the window', async () => {
    const { kv, limiter } = setUp(3);
    let hits = 0;
    const hit = kv.hit.bind(kv);
    kv.hit = (...args) => {
      hits += 1;
      return hit(...args);
    };
    const decisions = await Promise.all([1, 2, 3, 4, 5].map(() => limiter.consume('burst')));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(hits).toBe(1);
    await expect(limiter.consume('burst')).resolves.toMatchObject({ allowed: false });
    expect(hits).toBe(2);
  });

  it('fails every call of a shared hit when the store fails', async () => {
    const { kv, limiter } = setUp(3);
    kv.hit = async () => {
      throw new Error('store down');
    };
    const results = await Promise.allSettled([limiter.consume('k'), limiter.consume('k')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('counts keys separately', async () => {
    const { limiter } = setUp(1);
    await expect(limiter.consume('a')).resolves.toMatchObject({ allowed: true });
    await expect(limiter.consume('a')).resolves.toMatchObject({ allowed: false });
    await expect(limiter.consume('b')).resolves.toMatchObject({ allowed: true });
  });

  it('keeps its keys in its own namespace of the store', async () => {
    const { kv } = setUp();
    const login = createRateLimiter(kv, { limit: 1, windowMs: 1000, keyPrefix: 'rl:login:' });
    const api = createRateLimiter(kv, { limit: 1, windowMs: 1000, keyPrefix: 'rl:api:' });
    await login.consume('u');
    await expect(api.consume('u')).resolves.toMatchObject({ allowed: true });
    await expect(kv.ttl('rl:login:u')).resolves.toBe(1000);
  });

  it('rejects a limit that is not a positive integer', () => {
    const kv = createMemoryKeyValue();
    expect(() => createRateLimiter(kv, { limit: 0, windowMs: 1000 })).toThrow(RangeError);
    expect(() => createRateLimiter(kv, { limit: 1.5, windowMs: 1000 })).toThrow(RangeError);
  });
});
