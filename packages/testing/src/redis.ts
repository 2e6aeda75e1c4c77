/**
 * Redis isolation for tests: every test file works under its own random key prefix and
 * deletes exactly those keys afterwards. Never FLUSHDB: the server is shared.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** A prefix such as `test:kv:lq3x9a:1f2e3d4c:` unique to this call. */
export function randomPrefix(name: string): string {
  return `test:${name}:${Date.now().toString(36)}:${randomBytes(4).toString('hex')}:`;
}

/** Escapes the glob characters of a literal prefix for SCAN MATCH. */
function globEscape(literal: string): string {
  return literal.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** Deletes every key starting with prefix (SCAN + UNLINK); returns how many. */
export async function deleteByPrefix(redisUrl: string, prefix: string): Promise<number> {
  if (prefix.length === 0) throw new Error('deleteByPrefix: refusing an empty prefix');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${globEscape(prefix)}*`, 'COUNT', 1000);
      if (keys.length > 0) deleted += await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}
