/**
 * Verified tokens by SHA-256 of the token, until their exp: a hit skips the signature check.
 * Bounded LRU (Map insertion order; a hit moves the entry to the end).
 */
import { createHash } from 'node:crypto';

export interface TokenCache<T> {
  get(token: string, nowSec: number): T | undefined;
  set(token: string, value: T, expSec: number): void;
  clear(): void;
}

export function createTokenCache<T>(max = 10_000): TokenCache<T> {
  const entries = new Map<string, { value: T; exp: number }>();
  const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');
  return {
    get(token, nowSec) {
      const key = keyOf(token);
      const hit = entries.get(key);
      if (!hit) return undefined;
      entries.delete(key);
      if (hit.exp <= nowSec) return undefined;
      entries.set(key, hit);
      return hit.value;
    },
    set(token, value, expSec) {
      if (max <= 0) return;
      entries.set(keyOf(token), { value, exp: expSec });
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
    clear: () => entries.clear(),
  };
}
