/**
 * Redis going away and coming back, simulated with a TCP proxy in front of the shared
 * server (the server itself keeps running, so nobody else's keys are lost).
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createTcpProxy, deleteByPrefix, randomPrefix, testUrls, waitUntil } from '@skiptrace/testing';
import type { TcpProxy } from '@skiptrace/testing';
import { KeyValueUnavailableError } from '../src/index.ts';
import { createRedisKeyValue } from '../src/kv-redis.ts';
import type { KeyValueStore } from '../src/kv.port.ts';

// Waits for ioredis to reconnect after the outage.
jest.setTimeout(30_000);

const { redisUrl } = testUrls();
const prefix = randomPrefix('kv-outage');

describe('Redis KeyValueStore during an outage', () => {
  let proxy: TcpProxy;
  let kv: KeyValueStore;
  const warnings: string[] = [];

  beforeAll(async () => {
    const target = new URL(redisUrl);
    proxy = await createTcpProxy(target.hostname, Number(target.port || 6379));
    const logger = { warn: (_meta: object, message?: string) => void warnings.push(message ?? '') };
    kv = createRedisKeyValue({ url: proxy.urlFor(redisUrl), prefix, logger });
  });

  afterAll(async () => {
    await kv.close();
    await proxy.close();
    await deleteByPrefix(redisUrl, prefix);
  });

  it('fails fast with KeyValueUnavailableError while down and recovers by itself', async () => {
    await kv.set('before', 'kept');
    await proxy.stop();

    const started = Date.now();
    const failures = await Promise.all([
      kv.get('before').catch((error: unknown) => error),
      kv.hit('counter', 60_000).catch((error: unknown) => error),
      kv.claimDue('jobs', Date.now(), { total: 10, perGroup: 10 }, 1000).catch((error: unknown) => error),
    ]);
    for (const failure of failures) expect(failure).toBeInstanceOf(KeyValueUnavailableError);
    expect((failures[0] as Error).cause).toBeDefined();
    expect(Date.now() - started).toBeLessThan(1500);
    await expect(kv.ping()).rejects.toBeInstanceOf(KeyValueUnavailableError);
    expect(warnings).toContain('redis: connection error');

    await proxy.start();
    await waitUntil(() => kv.ping().then(() => true), { timeoutMs: 10_000, message: 'reconnected' });
    await expect(kv.get('before')).resolves.toBe('kept');
    await expect(kv.hit('counter', 60_000)).resolves.toMatchObject({ count: 1 });
  });

  it('rejects, not hangs, when Redis is not there at start-up', async () => {
    const nowhere = createRedisKeyValue({ url: 'redis://127.0.0.1:1', prefix });
    try {
      const started = Date.now();
      await expect(nowhere.get('x')).rejects.toBeInstanceOf(KeyValueUnavailableError);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await nowhere.close();
    }
  });
});
