import { Fifo } from './fifo.ts';

/** A counting semaphore: at most `size` holders at once, waiters served in arrival order. */
export interface Slots {
  acquire(): Promise<void>;
  release(): void;
  /** Slots held now (never above size). */
  used(): number;
}

export function createSlots(size: number): Slots {
  const waiters = new Fifo<() => void>();
  let used = 0;
  return {
    acquire() {
      if (used < size) {
        used += 1;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    // A freed slot passes straight to the longest waiter, so the count never exceeds size.
    release() {
      const next = waiters.shift();
      if (next) next();
      else used -= 1;
    },
    used: () => used,
  };
}
