/**
 * The retry schedule is data. Attempt 1 goes out immediately; after the n-th failure
 * the next attempt waits RETRY_DELAYS_MS[n - 1], jittered by ±20 %. After the last
 * entry is used up the message is failed (an operator can replay it). About 27 h 35 m.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000, // 5 s
  300_000, // 5 min
  1_800_000, // 30 min
  7_200_000, // 2 h
  18_000_000, // 5 h
  36_000_000, // 10 h
  36_000_000, // 10 h
];

/** Total attempts: the immediate one plus one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export const JITTER = 0.2;

/** After a timeout or 429 the receiver is overloaded: wait at least a minute (as Svix does). */
export const OVERLOAD_MIN_DELAY_MS = 60_000;

export interface FailureInfo {
  /** Attempts made so far, including the one that just failed (1-based). */
  attempt: number;
  /** Receiver's Retry-After, in ms, when it sent one. */
  retryAfterMs?: number;
  /** The attempt timed out or was answered 429. */
  overloaded?: boolean;
}

/**
 * Delay before the next attempt, or null when retries are exhausted. Retry-After is
 * honoured but clamped to [scheduled, 2 × scheduled] so a receiver can neither pull
 * retries forward nor park a message indefinitely. random() is injectable for tests.
 */
export function nextRetryDelay(
  info: FailureInfo,
  schedule: readonly number[] = RETRY_DELAYS_MS,
  random: () => number = Math.random,
): number | null {
  const scheduled = schedule[info.attempt - 1];
  if (scheduled === undefined) return null;
  let delay = info.overloaded ? Math.max(scheduled, OVERLOAD_MIN_DELAY_MS) : scheduled;
  if (info.retryAfterMs !== undefined) delay = Math.min(Math.max(info.retryAfterMs, delay), 2 * delay);
  const factor = 1 + (random() * 2 - 1) * JITTER;
  return Math.round(delay * factor);
}

/** Retry-After as ms: delta-seconds or an HTTP date; undefined when absent or unparsable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
