import { createRedisKeyValue } from '@skiptrace/kv';
import { createDatabase } from '@skiptrace/storage';
import { createTestDatabaseUrl, deleteByPrefix, randomPrefix, testUrls } from '@skiptrace/testing';
import { describeOAuthFlows } from './oauth-flows.suite.ts';

// Production: PostgreSQL (own database for this file) and Redis (own key prefix), so the
// oidc-provider artefacts live in Redis and clients, users and keys in PostgreSQL.
describeOAuthFlows('PostgreSQL + Redis', async () => {
  const { redisUrl } = testUrls();
  const database = await createTestDatabaseUrl('auth_flows');
  const db = createDatabase({ databaseUrl: database.url });
  const prefix = randomPrefix('auth');
  const kv = createRedisKeyValue({ url: redisUrl, prefix });
  return {
    db,
    kv,
    async cleanup() {
      await kv.close();
      await db.close();
      await database.drop();
      await deleteByPrefix(redisUrl, prefix);
    },
  };
});
