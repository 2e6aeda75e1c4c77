/**
 * Natural batching: callers submit one item each and await their own result, while the
 * batcher runs `run` over whatever items queued up while earlier batches were busy. At low
 * load every batch is a single item and waits for nothing but the current tick; under load
 * batches grow by themselves, so one round trip (one query, one commit, one socket write)
 * serves many callers. No timer decides when to flush, so it adds no idle latency.
 */
export interface BatcherOptions {
  /** Most items in one call of `run`. */
  maxBatch: number;
  /** Calls of `run` in progress at once (e.g. a share of the connection pool); default 2. */
  maxConcurrent?: number;
}

interface Entry<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Returns a function that submits one item. `run` receives the items in submission order and
 * must return one result per item, in the same order; if it throws, every item of that batch
 * fails with the error. A result that is an Error instance fails only its own item.
 */
export function createBatcher<I, O>(
  run: (items: I[]) => Promise<(O | Error)[]>,
  options: BatcherOptions,
): (item: I) => Promise<O> {
  const maxConcurrent = options.maxConcurrent ?? 2;
  let queue: Entry<I, O>[] = [];
  let running = 0;
  let scheduled = false;

  async function runBatch(batch: Entry<I, O>[]): Promise<void> {
    try {
      const results = await run(batch.map((e) => e.item));
      if (results.length !== batch.length) {
        throw new Error(`batch returned ${results.length} results for ${batch.length} items`);
      }
      batch.forEach((entry, i) => {
        const result = results[i]!;
        if (result instanceof Error) entry.reject(result);
        else entry.resolve(result);
      });
    } catch (err) {
      for (const entry of batch) entry.reject(err);
    }
  }

  function drain(): void {
    scheduled = false;
    while (running < maxConcurrent && queue.length > 0) {
      const batch = queue.length <= options.maxBatch ? queue : queue.splice(0, options.maxBatch);
      if (batch === queue) queue = [];
      running += 1;
      void runBatch(batch).finally(() => {
        running -= 1;
        schedule();
      });
    }
  }

  // setImmediate, not a microtask: callers resuming in the same turn of the event loop
  // (a burst of socket reads, a prefetch of deliveries) all join the first batch.
  function schedule(): void {
    if (scheduled || queue.length === 0 || running >= maxConcurrent) return;
    scheduled = true;
    setImmediate(drain);
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
}
