/**
 * The KeyValueStore behaviour suite, run against every adapter (kv-memory.test.ts,
 * kv-redis.int.test.ts). Each test uses its own keys, so the order of tests is free.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { KeyValueStore } from '../src/kv.port.ts';

export interface KvHarness {
  kind: KeyValueStore['kind'];
  /** A store on this file's key space; each call is another client on the same data. */
  open(): KeyValueStore;
  /**
   * Lets ms of store time pass, resolving once check() holds: the memory harness moves
   * its clock, the Redis harness polls in real time.
   */
  passTime(ms: number, check: () => Promise<boolean>): Promise<void>;
}

export function describeKvContract(harness: KvHarness): void {
  describe(`KeyValueStore contract (${harness.kind})`, () => {
    let kv: KeyValueStore;
    let other: KeyValueStore;

    beforeAll(() => {
      kv = harness.open();
      other = harness.open();
    });

    afterAll(async () => {
      await kv.close();
      await other.close();
    });

    it('is of the expected kind and answers ping', async () => {
      expect(kv.kind).toBe(harness.kind);
      await expect(kv.ping()).resolves.toBeUndefined();
    });

    it('gets, sets, overwrites and deletes strings', async () => {
      await expect(kv.get('str:a')).resolves.toBeNull();
      await expect(kv.set('str:a', 'één 🏠\n')).resolves.toBe(true);
      await expect(other.get('str:a')).resolves.toBe('één 🏠\n');
      await kv.set('str:a', '');
      await expect(kv.get('str:a')).resolves.toBe('');
      await kv.set('str:b', 'x');
      await expect(kv.del('str:a', 'str:b', 'str:absent')).resolves.toBe(2);
      await expect(kv.del()).resolves.toBe(0);
      await expect(kv.get('str:a')).resolves.toBeNull();
    });

    it('sets only if absent when asked', async () => {
      await expect(kv.set('nx:a', 'first', { onlyIfAbsent: true })).resolves.toBe(true);
      await expect(other.set('nx:a', 'second', { onlyIfAbsent: true })).resolves.toBe(false);
      await expect(kv.get('nx:a')).resolves.toBe('first');
      await kv.del('nx:a');
      await expect(kv.set('nx:a', 'third', { onlyIfAbsent: true, ttlMs: 60_000 })).resolves.toBe(true);
      await expect(kv.get('nx:a')).resolves.toBe('third');
    });

    it('reports ttl: -2 absent, -1 without expiry, remaining ms otherwise', async () => {
      await expect(kv.ttl('ttl:a')).resolves.toBe(-2);
      await kv.set('ttl:a', 'v');
      await expect(kv.ttl('ttl:a')).resolves.toBe(-1);
      await kv.set('ttl:a', 'v', { ttlMs: 60_000 });
      const ttl = await kv.ttl('ttl:a');
      expect(ttl).toBeGreaterThan(55_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
      await kv.set('ttl:a', 'v');
      await expect(kv.ttl('ttl:a')).resolves.toBe(-1);
      await expect(kv.set('ttl:a', 'v', { ttlMs: 0 })).rejects.toThrow(RangeError);
    });

    it('expires keys after their ttl', async () => {
      await kv.set('exp:a', 'v', { ttlMs: 200 });
      await kv.set('exp:keep', 'v');
      await expect(kv.get('exp:a')).resolves.toBe('v');
      await harness.passTime(200, async () => (await kv.get('exp:a')) === null);
      await expect(kv.ttl('exp:a')).resolves.toBe(-2);
      await expect(kv.get('exp:keep')).resolves.toBe('v');
    });

    it('counts hits in a fixed window that starts with the first hit', async () => {
      const first = await kv.hit('hit:a', 300);
      expect(first.count).toBe(1);
      expect(first.resetMs).toBeGreaterThan(0);
      expect(first.resetMs).toBeLessThanOrEqual(300);
      const second = await other.hit('hit:a', 300);
      expect(second.count).toBe(2);
      expect(second.resetMs).toBeLessThanOrEqual(first.resetMs);
      await expect(kv.hit('hit:b', 300)).resolves.toMatchObject({ count: 1 });
      await expect(kv.hit('hit:b', 300, 5)).resolves.toMatchObject({ count: 6 });
      await expect(kv.hit('hit:b', 300, 0)).rejects.toThrow(RangeError);
      await harness.passTime(300, async () => (await kv.ttl('hit:a')) === -2);
      await expect(kv.hit('hit:a', 300)).resolves.toMatchObject({ count: 1 });
      await expect(kv.hit('hit:a', 0)).rejects.toThrow(RangeError);
    });

    it('gives a counter set without ttl a window on its first hit; refuses non-integers', async () => {
      await kv.set('hit:preset', '5');
      const hit = await kv.hit('hit:preset', 60_000);
      expect(hit.count).toBe(6);
      expect(hit.resetMs).toBeGreaterThan(55_000);
      expect(hit.resetMs).toBeLessThanOrEqual(60_000);
      await kv.set('hit:text', 'abc');
      await expect(kv.hit('hit:text', 1000)).rejects.toThrow(/not an integer/);
    });

    it('keeps sets, with an optional expiry on the whole set', async () => {
      await expect(kv.members('set:a')).resolves.toEqual([]);
      await kv.addToSet('set:a', 'x');
      await other.addToSet('set:a', 'y');
      await kv.addToSet('set:a', 'x');
      expect((await kv.members('set:a')).sort()).toEqual(['x', 'y']);
      await expect(kv.ttl('set:a')).resolves.toBe(-1);
      await kv.addToSet('set:b', 'z', 200);
      await expect(kv.members('set:b')).resolves.toEqual(['z']);
      await harness.passTime(200, async () => (await kv.members('set:b')).length === 0);
      await expect(kv.del('set:a')).resolves.toBe(1);
      await expect(kv.members('set:a')).resolves.toEqual([]);
    });

    it('rejects string commands on a set, as Redis does', async () => {
      await kv.addToSet('type:set', 'x');
      await expect(kv.get('type:set')).rejects.toThrow(/WRONGTYPE/);
      await kv.set('type:str', 'v');
      await expect(kv.members('type:str')).rejects.toThrow(/WRONGTYPE/);
    });

    const upTo = (total: number, perGroup = total, groups?: Map<string, number>) => ({ total, perGroup, groups });
    const names = (claimed: { member: string }[]) => claimed.map((c) => c.member);

    it('claims due members in due order, ties by member, up to the limit', async () => {
      await kv.schedule('order', 'g', 'c', 300);
      await kv.schedule('order', 'g', 'a', 100);
      await kv.schedule('order', 'g', 'b2', 200);
      await kv.schedule('order', 'g', 'b1', 200);
      await kv.schedule('order', 'g', 'later', 5000);
      await expect(kv.scheduled('order')).resolves.toBe(5);
      await expect(kv.claimDue('order', 1000, upTo(3), 60_000)).resolves.toEqual(
        ['a', 'b1', 'b2'].map((member) => ({ group: 'g', member })),
      );
      await expect(kv.claimDue('order', 1000, upTo(3), 60_000)).resolves.toEqual([{ group: 'g', member: 'c' }]);
      await expect(kv.claimDue('order', 1000, upTo(0), 60_000)).resolves.toEqual([]);
      await expect(kv.scheduled('order')).resolves.toBe(5);
    });

    it('claims fairly across groups: a backlog in one never hides the others', async () => {
      for (let i = 0; i < 50; i++) await kv.schedule('fair', 'dead', `d${String(i).padStart(2, '0')}`, i);
      for (const member of ['x', 'y', 'z']) await kv.schedule('fair', 'live', member, 100);
      await kv.schedule('fair', 'later', 'l', 5000);
      // Groups in the order their earliest member is due, each up to its limit.
      expect(await kv.claimDue('fair', 1000, upTo(10, 4), 60_000)).toEqual([
        ...['d00', 'd01', 'd02', 'd03'].map((member) => ({ group: 'dead', member })),
        ...['x', 'y', 'z'].map((member) => ({ group: 'live', member })),
      ]);
      // A group at limit 0 is passed over and keeps its due members for a later claim.
      for (const member of ['x', 'y']) await kv.schedule('fair', 'live', member, 200);
      expect(names(await kv.claimDue('fair', 1000, upTo(10, 4, new Map([['dead', 0]])), 60_000))).toEqual(['x', 'y']);
      expect(names(await kv.claimDue('fair', 1000, upTo(10, 4, new Map([['dead', 2]])), 60_000))).toEqual([
        'd04',
        'd05',
      ]);
      // The total bounds the claim.
      expect(names(await kv.claimDue('fair', 1000, upTo(3, 50), 60_000))).toEqual(['d06', 'd07', 'd08']);
      await expect(kv.scheduled('fair')).resolves.toBe(54);
    });

    it('leases claimed members: they come due again when the lease ends', async () => {
      await kv.schedule('lease', 'g', 'job', 100);
      await expect(kv.claimDue('lease', 1000, upTo(10), 500)).resolves.toEqual([{ group: 'g', member: 'job' }]);
      await expect(other.claimDue('lease', 1499, upTo(10), 500)).resolves.toEqual([]);
      await expect(other.claimDue('lease', 1500, upTo(10), 500)).resolves.toEqual([{ group: 'g', member: 'job' }]);
    });

    it('moves a member when re-scheduled and forgets it when unscheduled', async () => {
      await kv.schedule('move', 'g', 'm', 100);
      await kv.schedule('move', 'g', 'm', 9000);
      await expect(kv.scheduled('move')).resolves.toBe(1);
      await expect(kv.claimDue('move', 1000, upTo(10), 60_000)).resolves.toEqual([]);
      await kv.schedule('move', 'g', 'm', 500);
      await expect(kv.claimDue('move', 1000, upTo(10), 60_000)).resolves.toEqual([{ group: 'g', member: 'm' }]);
      await kv.unschedule('move', 'g', 'm');
      await kv.unschedule('move', 'g', 'never-there');
      await kv.unschedule('move', 'no-group', 'never-there');
      await expect(kv.scheduled('move')).resolves.toBe(0);
      await expect(kv.claimDue('move', 100_000, upTo(10), 60_000)).resolves.toEqual([]);
    });

    it('never gives the same member to two concurrent claimers', async () => {
      const members = Array.from({ length: 300 }, (_, i) => `m${i}`);
      await Promise.all(members.map((member, i) => kv.schedule('race', `g${i % 5}`, member, i)));
      async function drain(store: KeyValueStore): Promise<string[]> {
        const claimed: string[] = [];
        for (;;) {
          const batch = await store.claimDue('race', 1000, upTo(7, 3), 60_000);
          if (batch.length === 0) return claimed;
          claimed.push(...names(batch));
        }
      }
      const [a, b, c] = await Promise.all([drain(kv), drain(other), drain(kv)]);
      const all = [...a, ...b, ...c];
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual([...members].sort());
    });
  });
}
