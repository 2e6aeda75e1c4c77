import { createRedisKeyValue } from '@skiptrace/kv';
import { createDatabase } from '@skiptrace/storage';
import { createTestDatabaseUrl, deleteByPrefix, randomPrefix, testUrls } from '@skiptrace/testing';
import { createDbAdapter } from '../src/oidc-adapter-db.ts';
import { createKvAdapter } from '../src/oidc-adapter-kv.ts';
import { artefactAdapters } from '../src/oidc-artefacts.ts';
import { describeAdapterContract } from './oidc-adapter.contract.ts';

describeAdapterContract('Redis', async () => {
  const { redisUrl } = testUrls();
  const prefix = randomPrefix('auth-adapter');
  const kv = createRedisKeyValue({ url: redisUrl, prefix });
  return {
    adapter: (name) => createKvAdapter(kv, name),
    async cleanup() {
      await kv.close();
      await deleteByPrefix(redisUrl, prefix);
    },
  };
});

describeAdapterContract('PostgreSQL', async () => {
  const database = await createTestDatabaseUrl('auth_adapter');
  const db = createDatabase({ databaseUrl: database.url });
  await db.migrate();
  return {
    adapter: (name) => createDbAdapter(db, name),
    async cleanup() {
      await db.close();
      await database.drop();
    },
  };
});

// As the auth service composes them: durable models in PostgreSQL, the lossable ones in Redis.
describeAdapterContract('PostgreSQL + Redis (oidc-artefacts)', async () => {
  const { redisUrl } = testUrls();
  const prefix = randomPrefix('auth-artefacts');
  const kv = createRedisKeyValue({ url: redisUrl, prefix });
  const database = await createTestDatabaseUrl('auth_artefacts');
  const db = createDatabase({ databaseUrl: database.url });
  await db.migrate();
  return {
    adapter: artefactAdapters(db, kv),
    async cleanup() {
      await kv.close();
      await deleteByPrefix(redisUrl, prefix);
      await db.close();
      await database.drop();
    },
  };
});
