import { createRedisKeyValue, type KeyValueStore } from '@skiptrace/kv';
import { createDatabase } from '@skiptrace/storage';
import { createTestDatabaseUrl, deleteByPrefix, randomPrefix, testUrls } from '@skiptrace/testing';
import { describeOAuthFlows } from './oauth-flows.suite.ts';

// Production: PostgreSQL (own database for this file) and Redis (own key prefix): grants,
// sessions, codes and refresh tokens live in PostgreSQL, interactions in Redis.
describeOAuthFlows('PostgreSQL + Redis', async () => {
  const { redisUrl } = testUrls();
  const database = await createTestDatabaseUrl('auth_flows');
  const db = createDatabase({ databaseUrl: database.url });
  const prefix = randomPrefix('auth');
  const kv = createRedisKeyValue({ url: redisUrl, prefix });
  // "Redis restarted empty" without touching the machine's Redis: a fresh key prefix.
  const empties: { prefix: string; kv: KeyValueStore }[] = [];
  return {
    db,
    kv,
    emptyKv() {
      const prefix = randomPrefix('auth-empty');
      const empty = createRedisKeyValue({ url: redisUrl, prefix });
      empties.push({ prefix, kv: empty });
      return empty;
    },
    async cleanup() {
      for (const empty of empties) {
        await empty.kv.close();
        await deleteByPrefix(redisUrl, empty.prefix);
      }
      await kv.close();
      await db.close();
      await database.drop();
      await deleteByPrefix(redisUrl, prefix);
    },
  };
});
