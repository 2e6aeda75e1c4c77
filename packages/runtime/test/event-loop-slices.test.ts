import { describe, expect, it } from '@jest/globals';
import { eventLoopSlices, nextTurn } from '../src/event-loop-slices.ts';

describe('eventLoopSlices', () => {
  it('is due once its slice has run, and not before', async () => {
    expect(eventLoopSlices(0).due()).toBe(true);
    const long = eventLoopSlices(1e9);
    expect(long.due()).toBe(false);
    expect(long.maybeYield()).toBeUndefined();
  });

  it('gives the event loop a turn: what was waiting runs before the loop goes on', async () => {
    const slices = eventLoopSlices(0);
    const ran: string[] = [];
    setImmediate(() => ran.push('waiting'));
    await Promise.resolve();
    expect(ran).toEqual([]);
    await slices.maybeYield();
    expect(ran).toEqual(['waiting']);
    setImmediate(() => ran.push('next'));
    await nextTurn();
    expect(ran).toEqual(['waiting', 'next']);
  });
});
