import { describe, expect, it } from '@jest/globals';
import { createBus, createMemoryBus, observeBus } from '../src/index.ts';
import { busContract } from './bus.contract.ts';

busContract('memory', async () => createMemoryBus());
// The metrics and trace-context wrapper every createBus() adds keeps the port's behaviour.
busContract('memory, observed', async () => observeBus(createMemoryBus()));

describe('createBus', () => {
  it('is in-process when no AMQP URL is configured', async () => {
    const bus = await createBus({});
    expect(bus.kind).toBe('memory');
    expect(bus.isReady()).toBe(true);
    await bus.close();
  });
});
