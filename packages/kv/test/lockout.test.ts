import { describe, expect, it } from '@jest/globals';
import { createMemoryKeyValue } from '../src/kv-memory.ts';
import { createLockout } from '../src/lockout.ts';
import type { LockoutOptions } from '../src/lockout.ts';
import { manualClock } from './manual-clock.ts';

const OPTIONS: LockoutOptions = { threshold: 3, baseMs: 1000, maxMs: 5000, windowMs: 3_600_000 };

function setUp(options: LockoutOptions = OPTIONS) {
  const clock = manualClock();
  const kv = createMemoryKeyValue({ now: clock.now });
  return { clock, lockout: createLockout(kv, options) };
}

describe('createLockout', () => {
  it('locks at the threshold for baseMs, doubling per further failure up to maxMs', async () => {
    const { lockout } = setUp();
    await expect(lockout.failure('u')).resolves.toEqual({ locked: false, retryAfterMs: 0, failures: 1 });
    await expect(lockout.failure('u')).resolves.toEqual({ locked: false, retryAfterMs: 0, failures: 2 });
    await expect(lockout.status('u')).resolves.toEqual({ locked: false, retryAfterMs: 0 });
    const durations: number[] = [];
    for (let i = 0; i < 5; i++) durations.push((await lockout.failure('u')).retryAfterMs);
    expect(durations).toEqual([1000, 2000, 4000, 5000, 5000]);
    await expect(lockout.status('u')).resolves.toEqual({ locked: true, retryAfterMs: 5000 });
  });

  it('unlocks when the lock time has passed', async () => {
    const { clock, lockout } = setUp();
    for (let i = 0; i < 3; i++) await lockout.failure('u');
    clock.advance(999);
    await expect(lockout.status('u')).resolves.toEqual({ locked: true, retryAfterMs: 1 });
    clock.advance(1);
    await expect(lockout.status('u')).resolves.toEqual({ locked: false, retryAfterMs: 0 });
    // The failures are still remembered: the next one locks for twice as long.
    await expect(lockout.failure('u')).resolves.toEqual({ locked: true, retryAfterMs: 2000, failures: 4 });
  });

  it('clears failures and lock on success', async () => {
    const { lockout } = setUp();
    for (let i = 0; i < 4; i++) await lockout.failure('u');
    await lockout.success('u');
    await expect(lockout.status('u')).resolves.toEqual({ locked: false, retryAfterMs: 0 });
    await expect(lockout.failure('u')).resolves.toMatchObject({ locked: false, failures: 1 });
  });

  it('forgets failures windowMs after the first, and keeps keys apart', async () => {
    const { clock, lockout } = setUp();
    await lockout.failure('u');
    await lockout.failure('u');
    await lockout.failure('other');
    clock.advance(OPTIONS.windowMs ?? 0);
    await expect(lockout.failure('u')).resolves.toMatchObject({ locked: false, failures: 1 });
    await expect(lockout.status('other')).resolves.toMatchObject({ locked: false });
  });

  it('rejects inconsistent options', () => {
    const kv = createMemoryKeyValue();
    expect(() => createLockout(kv, { threshold: 0, baseMs: 1, maxMs: 1 })).toThrow(RangeError);
    expect(() => createLockout(kv, { threshold: 1, baseMs: 10, maxMs: 5 })).toThrow(RangeError);
  });
});
