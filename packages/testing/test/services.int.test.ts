// @run-alone: pauses and restarts the services.
import { describe, expect, it, jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { ensureServices } from '../scripts/ensure-services.ts';
import { postgresReady, rabbitReady, redisReady } from '../src/probes.ts';
import { docker, pauseService, restartService, unpauseService } from '../src/restart.ts';
import { serviceContainer, serviceMode, testUrls } from '../src/services.ts';
import { createTcpProxy } from '../src/tcp-proxy.ts';

// ensureServices runs a start command and waits for it.
jest.setTimeout(30_000);

const urls = testUrls();

describe('probes and ensureServices', () => {
  it("sees the run's three services up", async () => {
    await expect(postgresReady(urls.databaseUrl)).resolves.toBe(true);
    await expect(redisReady(urls.redisUrl)).resolves.toBe(true);
    await expect(rabbitReady(urls.amqpUrl)).resolves.toBe(true);
    await expect(ensureServices()).resolves.toBeUndefined();
  });

  it('reports a service it cannot reach by name, URL and start command', async () => {
    // Port 1 never answers; the start command it tries is for the (already running) container,
    // or with SKIPTRACE_TEST_SERVICES=local the machine's cluster.
    const broken = { ...urls, databaseUrl: 'postgres://postgres@127.0.0.1:1/test' };
    const failure = ensureServices({ urls: broken, startTimeoutMs: 300 });
    await expect(failure).rejects.toThrow(/PostgreSQL is not reachable at postgres:\/\/postgres@127\.0\.0\.1:1\/test/);
    await expect(failure).rejects.toThrow(
      serviceMode() === 'local'
        ? /pg_ctlcluster --skip-systemctl-redirect \d+ main start/
        : new RegExp(`docker start ${serviceContainer('postgres')}`),
    );
  });
});

describe('createTcpProxy', () => {
  it('forwards to the target, and cuts and restores it on stop and start', async () => {
    const proxy = await createTcpProxy('127.0.0.1', Number(new URL(urls.redisUrl).port || 6379));
    try {
      const url = proxy.urlFor(urls.redisUrl);
      expect(new URL(url).port).toBe(String(proxy.port));
      await expect(redisReady(url)).resolves.toBe(true);
      await proxy.stop();
      await expect(redisReady(url)).resolves.toBe(false);
      await proxy.start();
      await expect(redisReady(url)).resolves.toBe(true);
    } finally {
      await proxy.close();
    }
  });
});

// The run's containers (not with SKIPTRACE_TEST_SERVICES=local, where there are none).
const describeOnContainers = serviceMode() === 'containers' ? describe : describe.skip;

describeOnContainers("the run's service containers", () => {
  it("are published on 127.0.0.1 only, never on the machine's own service ports", async () => {
    for (const service of ['postgres', 'redis', 'rabbitmq'] as const) {
      const bindings = JSON.parse(
        await docker(['inspect', '-f', '{{json .HostConfig.PortBindings}}', serviceContainer(service)!]),
      ) as Record<string, { HostIp: string; HostPort: string }[]>;
      for (const binding of Object.values(bindings).flat()) expect(binding.HostIp).toBe('127.0.0.1');
    }
    expect(new URL(urls.databaseUrl).port).not.toBe('5432');
    expect(new URL(urls.redisUrl).port).not.toBe('6379');
    expect(new URL(urls.amqpUrl).port).not.toBe('5672');
  });

  it('keep their URLs across a restart, and a paused one hangs rather than refuses', async () => {
    await restartService('redis');
    await expect(redisReady(urls.redisUrl)).resolves.toBe(true);
    const redis = new Redis(urls.redisUrl, { maxRetriesPerRequest: 0, commandTimeout: 500 });
    redis.on('error', () => undefined);
    try {
      await expect(redis.ping()).resolves.toBe('PONG');
      await pauseService('redis');
      try {
        const started = Date.now();
        await expect(redis.ping()).rejects.toThrow(/timed out/i);
        expect(Date.now() - started).toBeGreaterThanOrEqual(450);
      } finally {
        await unpauseService('redis');
      }
      await expect(redis.ping()).resolves.toBe('PONG');
    } finally {
      redis.disconnect();
    }
  });
});
