import { describe, expect, it } from '@jest/globals';
import { onContainers, serviceContainer, serviceMode, testUrls, waitUntil } from '../src/services.ts';

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

describe('the service containers in the environment', () => {
  const containers = {
    SKIPTRACE_TEST_SERVICES: 'containers',
    SKIPTRACE_TEST_DATABASE_URL: 'postgres://postgres:pw@127.0.0.1:40001/test',
    SKIPTRACE_TEST_REDIS_URL: 'redis://127.0.0.1:40002',
    SKIPTRACE_TEST_AMQP_URL: 'amqp://guest:guest@127.0.0.1:40003',
    SKIPTRACE_TEST_POSTGRES_CONTAINER: 'abc123',
  };

  it('win over DATABASE_URL, REDIS_URL and AMQP_URL (the application keeps those)', () => {
    expect(testUrls({ ...containers, DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://r:1' })).toEqual({
      databaseUrl: 'postgres://postgres:pw@127.0.0.1:40001/test',
      redisUrl: 'redis://127.0.0.1:40002',
      amqpUrl: 'amqp://guest:guest@127.0.0.1:40003',
    });
    expect(serviceContainer('postgres', containers)).toBe('abc123');
    expect(serviceContainer('redis', containers)).toBeUndefined();
  });

  it('are required once the mode says containers: no quiet fall back to the machine', () => {
    expect(() => testUrls({ SKIPTRACE_TEST_SERVICES: 'containers', SKIPTRACE_TEST_REDIS_URL: 'redis://x' })).toThrow(
      /SKIPTRACE_TEST_DATABASE_URL, SKIPTRACE_TEST_AMQP_URL not set/,
    );
  });

  it('are containers by default, local on request, nothing else', () => {
    expect(serviceMode({})).toBe('containers');
    expect(serviceMode({ SKIPTRACE_TEST_SERVICES: 'local' })).toBe('local');
    expect(() => serviceMode({ SKIPTRACE_TEST_SERVICES: 'docker' })).toThrow(/"containers" or "local"/);
  });

  it("are acted on only once the setup said so: a bench outside the test run keeps the machine's services", () => {
    expect(onContainers(containers)).toBe(true);
    expect(onContainers({})).toBe(false);
    expect(onContainers({ SKIPTRACE_TEST_SERVICES: 'local' })).toBe(false);
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
