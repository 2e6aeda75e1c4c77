import { randomUUID } from 'node:crypto';
import { waitUntil } from '@skiptrace/testing';
import type { BusTransport } from '../src/bus.port.ts';

/** A queue or topic name no other test (or test run) uses. */
export const unique = (label: string): string => `${label}-${randomUUID().slice(0, 8)}`;

/** A promise plus the function that resolves it, for handlers a test holds open. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * Publishes `total` messages to a fresh queue consumed with `prefetch` and returns the most
 * handlers that ran at once. Each handler is held until the consumer is full (or nothing
 * more can come), so a broken bound shows as a peak above prefetch rather than depending
 * on timing.
 */
export async function peakHandlers(
  bus: BusTransport,
  options: { prefetch: number; total: number; pack: boolean },
): Promise<number> {
  const { prefetch, total, pack } = options;
  const queue = unique(pack ? 'pack-prefetch' : 'prefetch');
  let running = 0;
  let peak = 0;
  let started = 0;
  let done = 0;
  await bus.consume({ queue, topics: [queue], prefetch }, async () => {
    running += 1;
    started += 1;
    peak = Math.max(peak, running);
    await waitUntil(() => running >= prefetch || started >= total, { message: 'a full consumer', intervalMs: 2 });
    running -= 1;
    done += 1;
  });
  await Promise.all(Array.from({ length: total }, (_, i) => bus.publish(queue, i, { pack })));
  await waitUntil(() => done === total, { message: 'all handled' });
  return peak;
}
