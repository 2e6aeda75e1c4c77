import type { KeyValueStore } from '@skiptrace/kv';
import { attemptDelivery, type AttemptDeps } from '@skiptrace/webhooks';
import { leaseMessages, member, messageStates, parseMember, type LeasedMessage } from '@skiptrace/webhooks';
import { reschedule, unschedule } from '@skiptrace/webhooks';

export interface WorkerDeps extends AttemptDeps {
  kv: KeyValueStore;
}

export interface DeliveryWorker {
  start(): void;
  /** Wakes an idle loop (something was just scheduled in this process). */
  nudge(): void;
  /** Graceful: stop claiming, finish in-flight attempts. abort: drop them as a crash would. */
  stop(options?: { abort?: boolean }): Promise<void>;
  inFlight(): number;
}

const CLAIM_BATCH = 200;
/** Claimed members an endpoint at its cap may hold locally, per unit of cap. */
const WAITING_PER_SLOT = 4;
/**
 * Beyond that a member goes back on the schedule for 1–1.5 s (no attempt spent). Claims ask
 * each endpoint for no more than it has room for, so this is only a safety net.
 */
const overflowDelay = () => 1000 + Math.floor(Math.random() * 500);

/**
 * The claim loop. Due members are claimed from the key-value schedule with a lease (a
 * dead dispatcher's work comes due again), then held to a per-endpoint concurrency cap
 * and rate limit: an endpoint at its cap keeps a short local queue. The schedule is grouped
 * by endpoint and each claim asks every endpoint for at most the room it has here (none for
 * one whose slots and queue are full), so one slow endpoint occupies at most its cap, and
 * its backlog of due retries is passed over rather than claimed and put back ahead of others. Before sending, each message is leased in PostgreSQL; that row lease is
 * what guarantees no two dispatchers deliver one message at once, whatever Redis says.
 */
export function createDeliveryWorker(deps: WorkerDeps): DeliveryWorker {
  const { kv, db, config, clock, logger } = deps;
  const name = config.scheduleName;
  const tasks = new Map<string, { done: Promise<void>; abort: AbortController }>();
  const active = new Map<string, number>();
  const waiting = new Map<string, string[]>();
  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  const count = (endpointId: string, delta: number) => {
    const n = (active.get(endpointId) ?? 0) + delta;
    if (n <= 0) active.delete(endpointId);
    else active.set(endpointId, n);
  };

  /** Leases and launches members whose endpoint slot is already counted. */
  async function start(values: string[]): Promise<void> {
    const now = clock.now();
    let ready = values;
    if (config.endpointRatePerSec > 0) {
      ready = [];
      for (const value of values) {
        const { endpointId } = parseMember(value);
        const { count: hits, resetMs } = await kv.hit(`webhooks:rate:${endpointId}`, 1000);
        if (hits <= config.endpointRatePerSec) ready.push(value);
        else {
          count(endpointId, -1);
          await reschedule(kv, name, value, now + Math.max(resetMs, 1) + Math.floor(Math.random() * 50));
        }
      }
    }
    if (ready.length === 0) return;
    let leased: LeasedMessage[] = [];
    try {
      const ids = ready.map((v) => parseMember(v).messageId);
      leased = await leaseMessages(db, ids, new Date(now), new Date(now + config.leaseMs));
    } finally {
      const leasedIds = new Set(leased.map((m) => m.id));
      const rest = ready.filter((v) => !leasedIds.has(parseMember(v).messageId));
      rest.forEach((v) => count(parseMember(v).endpointId, -1));
      leased.forEach(launch);
      if (rest.length > 0) await heal(rest, now);
    }
  }

  /** Puts members we could not lease back where PostgreSQL says they belong. */
  async function heal(values: string[], now: number) {
    const ids = values.map((v) => parseMember(v).messageId);
    const states = new Map((await messageStates(db, ids)).map((s) => [s.id, s]));
    for (const value of values) {
      const state = states.get(parseMember(value).messageId);
      if (!state || state.status !== 'pending') await unschedule(kv, name, value);
      else {
        const due = Math.max(state.next_attempt_at?.getTime() ?? now, state.lease_until?.getTime() ?? now);
        await reschedule(kv, name, value, Math.max(due, now + 50));
      }
    }
  }

  function launch(m: LeasedMessage) {
    const abort = new AbortController();
    const value = member(m.id, m.endpoint_id);
    // The endpoint's slot is for the request: it is free once the response is in, while the
    // outcome is still being written (those writes are batched and take longer than a
    // request to a fast endpoint; holding the slot through them halved the throughput).
    let slotHeld = true;
    const freeSlot = () => {
      if (!slotHeld) return;
      slotHeld = false;
      count(m.endpoint_id, -1);
      drain(m.endpoint_id);
      wake?.();
    };
    const done = attemptDelivery(deps, m, abort.signal, freeSlot)
      .then(async (result) => {
        if (result.kind === 'retry') await reschedule(kv, name, value, result.dueAtMs);
        else if (result.kind === 'done') await unschedule(kv, name, value);
      })
      .catch((err: unknown) => logger.error({ err, messageId: m.id }, 'delivery bookkeeping failed; lease will expire'))
      .finally(() => {
        tasks.delete(m.id);
        freeSlot();
        wake?.();
      });
    tasks.set(m.id, { done, abort });
  }

  /**
   * Members drain() picked during this turn of the event loop, leased together on the next.
   * Deliveries finish in bursts (their outcomes are written in one statement), and each frees
   * a slot: leasing each successor on its own cost one UPDATE per delivery, about half of
   * PostgreSQL's CPU per delivery in the benchmark.
   */
  let picking: { values: string[]; endpoints: Set<string> } | undefined;
  const starting = new Set<Promise<void>>();

  function startSoon(endpointId: string, values: string[]) {
    if (!picking) {
      const batch = (picking = { values: [], endpoints: new Set<string>() });
      setImmediate(() => {
        picking = undefined;
        const started: Promise<void> = start(batch.values)
          .catch((err: unknown) => logger.warn({ err }, 'could not start queued deliveries'))
          .finally(() => {
            starting.delete(started);
            for (const id of batch.endpoints) drain(id);
          });
        starting.add(started);
      });
    }
    picking.values.push(...values);
    picking.endpoints.add(endpointId);
  }

  /** Starts an endpoint's locally queued members while it has free slots. */
  function drain(endpointId: string) {
    const queue = waiting.get(endpointId);
    const picked: string[] = [];
    while (running && queue?.length && (active.get(endpointId) ?? 0) < config.endpointConcurrency) {
      picked.push(queue.shift()!);
      count(endpointId, 1);
    }
    if (queue?.length === 0) waiting.delete(endpointId);
    if (picked.length > 0) startSoon(endpointId, picked);
  }

  async function tick(): Promise<void> {
    // Claim no more than could start now (concurrency), and from each endpoint no more than
    // its free slots and local queue can hold: an endpoint at its cap keeps what it has.
    let started = 0;
    const room = new Map<string, number>();
    const perEndpoint = config.endpointConcurrency * (1 + WAITING_PER_SLOT);
    for (const [endpointId, n] of active) {
      started += n;
      room.set(endpointId, perEndpoint - n);
    }
    for (const [endpointId, queue] of waiting)
      room.set(endpointId, (room.get(endpointId) ?? perEndpoint) - queue.length);
    // Attempts whose outcome is still being written hold no slot, but stop claiming if they pile
    // up (a slow store): at most as many again as the requests in flight.
    const free = Math.min(config.concurrency - started, 2 * config.concurrency - tasks.size);
    if (free <= 0) return idle(config.pollMs);
    const now = clock.now();
    const claimed = await kv.claimDue(
      name,
      now,
      { total: Math.min(free, CLAIM_BATCH), perGroup: perEndpoint, groups: room },
      config.leaseMs,
    );
    if (claimed.length === 0) return idle(config.pollMs);
    const startNow: string[] = [];
    for (const { group: endpointId, member: value } of claimed) {
      const queue = waiting.get(endpointId) ?? [];
      if ((active.get(endpointId) ?? 0) < config.endpointConcurrency) {
        count(endpointId, 1);
        startNow.push(value);
      } else if (queue.length < config.endpointConcurrency * WAITING_PER_SLOT) {
        if (queue.length === 0) waiting.set(endpointId, queue);
        queue.push(value);
      } else await reschedule(kv, name, value, now + overflowDelay());
    }
    await start(startNow);
    // Everything claimed went to endpoints at their cap: wait for a slot (a finished delivery wakes the loop).
    if (startNow.length === 0) await idle(config.pollMs);
  }

  async function run() {
    while (running) {
      try {
        await tick();
      } catch (err) {
        logger.warn({ err }, 'claim loop error; retrying');
        await idle(Math.max(config.pollMs, 500));
      }
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    nudge: () => wake?.(),
    inFlight: () => tasks.size,
    async stop(options = {}) {
      running = false;
      wake?.();
      await loop;
      if (options.abort) for (const task of tasks.values()) task.abort.abort();
      else {
        // Hand locally queued members straight back, so another dispatcher need not wait out the lease.
        const now = clock.now();
        for (const value of [...waiting.values()].flat()) await reschedule(kv, name, value, now).catch(() => undefined);
      }
      waiting.clear();
      // Picked members still being leased become tasks when their lease returns.
      while (picking || starting.size > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        await Promise.allSettled([...starting]);
      }
      if (options.abort) for (const task of tasks.values()) task.abort.abort();
      await Promise.allSettled([...tasks.values()].map((t) => t.done));
    },
  };
}
