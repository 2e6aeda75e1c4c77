import { describe, expect, it } from '@jest/globals';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, nextRetryDelay, parseRetryAfter } from '../src/retry-policy.ts';

const S = 1000;
const M = 60 * S;
const H = 60 * M;

describe('retry schedule', () => {
  it('is immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(RETRY_DELAYS_MS).toEqual([5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H]);
    expect(MAX_ATTEMPTS).toBe(8);
    const noJitter = () => 0.5;
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attempt) => nextRetryDelay({ attempt }, RETRY_DELAYS_MS, noJitter));
    expect(delays).toEqual([...RETRY_DELAYS_MS]);
    expect(nextRetryDelay({ attempt: 8 }, RETRY_DELAYS_MS, noJitter)).toBeNull();
  });

  it('jitters by at most ±20 %', () => {
    expect(nextRetryDelay({ attempt: 2 }, RETRY_DELAYS_MS, () => 0)).toBe(4 * M);
    expect(nextRetryDelay({ attempt: 2 }, RETRY_DELAYS_MS, () => 0.999999)).toBe(Math.round(6 * M * (1 - 2e-7)));
    const samples = Array.from({ length: 500 }, () => nextRetryDelay({ attempt: 1 })!);
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(4 * S);
    expect(Math.max(...samples)).toBeLessThanOrEqual(6 * S);
    expect(new Set(samples).size).toBeGreaterThan(50);
  });

  it('honours Retry-After clamped to [scheduled, 2 × scheduled]', () => {
    const mid = () => 0.5;
    expect(nextRetryDelay({ attempt: 2, retryAfterMs: 7 * M }, RETRY_DELAYS_MS, mid)).toBe(7 * M);
    expect(nextRetryDelay({ attempt: 2, retryAfterMs: 1 * S }, RETRY_DELAYS_MS, mid)).toBe(5 * M);
    expect(nextRetryDelay({ attempt: 2, retryAfterMs: 10 * H }, RETRY_DELAYS_MS, mid)).toBe(10 * M);
  });

  it('waits at least a minute after a timeout or 429', () => {
    expect(nextRetryDelay({ attempt: 1, overloaded: true }, RETRY_DELAYS_MS, () => 0.5)).toBe(M);
    expect(nextRetryDelay({ attempt: 3, overloaded: true }, RETRY_DELAYS_MS, () => 0.5)).toBe(30 * M);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120 * S);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:10:00 GMT', now)).toBe(10 * M);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
