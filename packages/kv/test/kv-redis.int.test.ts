import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { deleteByPrefix, randomPrefix, testUrls, waitUntil } from '@skiptrace/testing';
import { Redis } from 'ioredis';
import { createKeyValue } from '../src/index.ts';
import { createRedisKeyValue } from '../src/kv-redis.ts';
import { describeKvContract } from './kv.contract.ts';

// Expiry tests wait in real time on Redis.
jest.setTimeout(30_000);

const { redisUrl } = testUrls();
const prefix = randomPrefix('kv');

afterAll(async () => {
  await deleteByPrefix(redisUrl, prefix);
});

describeKvContract({
  kind: 'redis',
  open: () => createRedisKeyValue({ url: redisUrl, prefix }),
  async passTime(ms, check) {
    await waitUntil(check, { timeoutMs: ms + 3000, intervalMs: 20, message: `store state ${ms} ms later` });
  },
});

describe('Redis KeyValueStore key space', () => {
  it('stores every key, set and schedule under its prefix, and nothing else', async () => {
    const ownPrefix = `${prefix}space:`;
    const kv = createKeyValue({ redisUrl, prefix: ownPrefix });
    const raw = new Redis(redisUrl);
    try {
      expect(kv.kind).toBe('redis');
      await kv.set('plain', 'v');
      await kv.hit('counter', 60_000);
      await kv.addToSet('members', 'm');
      await kv.schedule('jobs', 'g', 'j', 1);
      await expect(raw.get(`${ownPrefix}plain`)).resolves.toBe('v');
      const keys = await raw.keys(`${ownPrefix}*`);
      expect(keys.sort()).toEqual(
        ['counter', 'members', 'plain', 'schedule:{jobs}', 'schedule:{jobs}:g'].map((name) => `${ownPrefix}${name}`),
      );
      const neighbour = createRedisKeyValue({ url: redisUrl, prefix: `${prefix}neighbour:` });
      await expect(neighbour.get('plain')).resolves.toBeNull();
      await neighbour.close();
    } finally {
      await kv.close();
      raw.disconnect();
    }
  });
});
