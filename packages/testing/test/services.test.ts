import { describe, expect, it } from '@jest/globals';
import { testUrls, waitUntil } from '../src/services.ts';

describe('testUrls', () => {
  it('defaults to the local services', () => {
    expect(testUrls({})).toEqual({
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/test',
      redisUrl: 'redis://127.0.0.1:6379',
      amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
    });
  });

  it('takes DATABASE_URL, REDIS_URL and AMQP_URL from the environment', () => {
    const env = { DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://r:1', AMQP_URL: 'amqp://a/v' };
    expect(testUrls(env)).toEqual({ databaseUrl: 'postgres://db/x', redisUrl: 'redis://r:1', amqpUrl: 'amqp://a/v' });
  });
});

describe('waitUntil', () => {
  it('returns the first truthy value, retrying through falsy results and errors', async () => {
    let attempts = 0;
    const value = await waitUntil(
      () => {
        attempts += 1;
        if (attempts === 1) throw new Error('not yet');
        return attempts >= 3 ? { attempts } : false;
      },
      { intervalMs: 1 },
    );
    expect(value).toEqual({ attempts: 3 });
  });

  it('rejects naming the condition and the last error when time runs out', async () => {
    const failing = waitUntil(
      () => {
        throw new Error('still down');
      },
      { timeoutMs: 30, intervalMs: 5, message: 'service up' },
    );
    await expect(failing).rejects.toThrow('waitUntil: service up not met within 30 ms; last error: still down');
  });
});
