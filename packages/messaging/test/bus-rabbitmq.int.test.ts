import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BusUnavailableError } from '../src/bus.port.ts';
import { createBus, createRabbitBus } from '../src/index.ts';
import { busContract } from './bus.contract.ts';
import { createTestVhost, ensureBrokerRunning, holdBrokerLock } from './rabbitmq-admin.ts';
import type { TestVhost } from './rabbitmq-admin.ts';

let vhost: TestVhost;
let releaseBroker: () => Promise<void>;
beforeAll(async () => {
  releaseBroker = await holdBrokerLock('shared');
  await ensureBrokerRunning();
  vhost = await createTestVhost('bus-contract');
}, 180_000);
afterAll(async () => {
  await vhost.remove();
  await releaseBroker();
}, 60_000);

busContract('rabbitmq', () => createRabbitBus({ url: vhost.url, exchange: 'contract' }));

describe('createRabbitBus', () => {
  it('is chosen by createBus when an AMQP URL is configured', async () => {
    const bus = await createBus({ amqpUrl: vhost.url });
    expect(bus.kind).toBe('rabbitmq');
    expect(bus.isReady()).toBe(true);
    await bus.close();
  });

  it('fails with BusUnavailableError when the broker cannot be reached in time', async () => {
    const started = Date.now();
    const connecting = createRabbitBus({ url: 'amqp://guest:guest@127.0.0.1:1', connectTimeoutMs: 500 });
    await expect(connecting).rejects.toBeInstanceOf(BusUnavailableError);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
