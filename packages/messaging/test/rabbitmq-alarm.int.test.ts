/**
 * A broker under a memory alarm blocks publishers without closing anything: the publish
 * is neither confirmed nor refused. The bus must give up at its deadline instead of
 * hanging the caller (a worker's event publish, a gateway's batch dispatch). Holds the
 * broker lock exclusively: the alarm blocks every publisher on the broker (the run's
 * container; `rabbitmqctl` runs inside it).
 */
// @run-alone: the alarm blocks every publisher on the broker.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BusUnavailableError } from '../src/bus.port.ts';
import { createRabbitBus } from '../src/bus-rabbitmq.ts';
import { createTestVhost, ensureBrokerRunning, holdBrokerLock, rabbitmqctl } from './rabbitmq-admin.ts';
import type { TestVhost } from './rabbitmq-admin.ts';
import { waitUntil } from '@skiptrace/testing';

let vhost: TestVhost;
let releaseBroker: () => Promise<void>;
let watermark: string;
const setWatermark = (value: string) => rabbitmqctl('set_vm_memory_high_watermark', value);

beforeAll(async () => {
  releaseBroker = await holdBrokerLock('exclusive');
  await ensureBrokerRunning();
  vhost = await createTestVhost('alarm');
  watermark = (await rabbitmqctl('eval', 'vm_memory_monitor:get_vm_memory_high_watermark().')).trim();
}, 180_000);
afterAll(async () => {
  await setWatermark(watermark);
  await vhost.remove();
  await releaseBroker();
}, 60_000);

describe('RabbitMQ bus under a memory alarm', () => {
  it('rejects a publish that gets no confirm by its deadline, and publishes again once the alarm clears', async () => {
    const bus = await createRabbitBus({ url: vhost.url, exchange: 'alarm', publishTimeoutMs: 1500 });
    try {
      const queue = `alarm-${Date.now()}`;
      await (await bus.consume({ queue, topics: [queue], prefetch: 1 }, async () => {})).cancel();
      await bus.publish(queue, 'before');

      await setWatermark('0.000001');
      const started = Date.now();
      const blocked = await Promise.allSettled(Array.from({ length: 20 }, (_, n) => bus.publish(queue, n)));
      const waited = Date.now() - started;
      expect(blocked.every((r) => r.status === 'rejected' && r.reason instanceof BusUnavailableError)).toBe(true);
      expect(waited).toBeGreaterThanOrEqual(1400);
      expect(waited).toBeLessThan(10_000);

      await setWatermark(watermark);
      // Once the broker reads again the publish goes through (on this connection or after a
      // reconnect); the blocked ones may have arrived meanwhile, which consumers dedupe.
      await waitUntil(
        async () =>
          bus.publish(queue, 'after').then(
            () => true,
            () => false,
          ),
        { timeoutMs: 30_000, message: 'a confirmed publish after the alarm' },
      );
      expect(await bus.depth(queue)).toBeGreaterThanOrEqual(2);
    } finally {
      await setWatermark(watermark);
      await bus.close();
    }
  }, 60_000);
});
