/**
 * Long synchronous loops on a shared event loop (a batch upload parsing rows, an export
 * rendering pages) hand the loop back after every few milliseconds of work, measured by the
 * clock rather than by a count of items: an item's cost varies tenfold (a row with five
 * phone groups vs a rejected one, a loaded vs a quiet machine), and what a request waiting
 * behind the loop feels is time. A synchronous skip trace crosses the event loop some ten
 * times (HTTP, publish, consume, queries, reply) and can wait up to a slice at each crossing,
 * so a slice of 1–2 ms keeps it within tens of milliseconds.
 */

/** A turn of the event loop: timers and I/O callbacks that became due run before this resolves. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface EventLoopSlices {
  /** True once the current slice has run `sliceMs` (cheap: one clock read). */
  due(): boolean;
  /** Gives a turn of the event loop; the next slice starts when it is back. */
  yieldTurn(): Promise<void>;
  /** `yieldTurn()` when due, else nothing to await. */
  maybeYield(): Promise<void> | undefined;
}

/** A slicer for one loop: call `maybeYield()` (or `due()` and `yieldTurn()`) between items. */
export function eventLoopSlices(sliceMs: number): EventLoopSlices {
  let start = performance.now();
  const slices: EventLoopSlices = {
    due: () => performance.now() - start >= sliceMs,
    async yieldTurn() {
      await nextTurn();
      start = performance.now();
    },
    maybeYield: () => (slices.due() ? slices.yieldTurn() : undefined),
  };
  return slices;
}
