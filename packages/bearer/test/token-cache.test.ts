import { describe, it, expect } from '@jest/globals';
import { createTokenCache } from '../src/index.ts';

describe('verified-token cache', () => {
  it('returns a value until its exp, then forgets it', () => {
    const cache = createTokenCache<string>();
    cache.set('token-a', 'ctx', 1_000);
    expect(cache.get('token-a', 999)).toBe('ctx');
    expect(cache.get('token-a', 1_000)).toBeUndefined();
    expect(cache.get('token-a', 999)).toBeUndefined();
  });

  it('is bounded: the least recently used entry goes first', () => {
    const cache = createTokenCache<number>(2);
    cache.set('a', 1, 10);
    cache.set('b', 2, 10);
    expect(cache.get('a', 0)).toBe(1);
    cache.set('c', 3, 10);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)).toBe(1);
    expect(cache.get('c', 0)).toBe(3);
  });

  it('size 0 disables caching', () => {
    const cache = createTokenCache<number>(0);
    cache.set('a', 1, 10);
    expect(cache.get('a', 0)).toBeUndefined();
  });
});
