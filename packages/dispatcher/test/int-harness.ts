import { createRedisKeyValue, type KeyValueStore } from '@skiptrace/kv';
import { createBus, type MessageBus } from '@skiptrace/messaging';
import { silentLogger } from '@skiptrace/runtime';
import { createPostgresDatabase, type Database } from '@skiptrace/storage';
import {
  createTestDatabaseUrl,
  createTestVhost,
  deleteByPrefix,
  randomPrefix,
  testUrls,
  type TestDatabase,
  type TestVhost,
} from '@skiptrace/testing';
import { webhookConfig, type WebhookConfig } from '@skiptrace/webhooks';
import { createDispatcher, type Dispatcher } from '../src/dispatcher.ts';
import { insertEndpoint } from '@skiptrace/webhooks';
import { generateSecret } from '@skiptrace/webhooks';

/**
 * Real PostgreSQL (a database of its own), Redis (a key prefix of its own) and RabbitMQ
 * (a vhost of its own). Dispatchers are started and killed by the tests; each has its
 * own connections, as separate processes would.
 */
export interface IntHarness {
  db: Database;
  publisher: MessageBus;
  config: WebhookConfig;
  redisPrefix: string;
  /** A dispatcher with its own bus and key-value connections. */
  spawn(): Promise<Dispatcher>;
  /** Keys of this test under the prefix (the schedule). */
  kv: KeyValueStore;
  forgetRedis(): Promise<number>;
  endpoint(account: string, url: string): Promise<{ id: string; secret: string }>;
  close(): Promise<void>;
}

export async function createIntHarness(overrides: Partial<WebhookConfig> = {}): Promise<IntHarness> {
  const urls = testUrls();
  const database: TestDatabase = await createTestDatabaseUrl('dispatcher');
  const vhost: TestVhost = await createTestVhost('dispatcher');
  const redisPrefix = randomPrefix('dispatcher');
  const db = createPostgresDatabase({ url: database.url });
  await db.migrate();
  const publisher = await createBus({ amqpUrl: vhost.url });
  const kv = createRedisKeyValue({ url: urls.redisUrl, prefix: redisPrefix });
  const config = webhookConfig({
    allowPrivate: true,
    timeoutMs: 1000,
    leaseMs: 2500,
    pollMs: 20,
    retryDelaysMs: [300, 300, 300, 300, 300, 300, 300],
    ...overrides,
  });
  const owned: { dispatcher: Dispatcher; close: () => Promise<void> }[] = [];
  return {
    db,
    publisher,
    config,
    redisPrefix,
    kv,
    async spawn() {
      const bus = await createBus({ amqpUrl: vhost.url });
      const ownKv = createRedisKeyValue({ url: urls.redisUrl, prefix: redisPrefix });
      const dispatcher = createDispatcher({ db, bus, kv: ownKv, config, logger: silentLogger() });
      owned.push({ dispatcher, close: async () => (await bus.close(), await ownKv.close()) });
      await dispatcher.start();
      return dispatcher;
    },
    forgetRedis: () => deleteByPrefix(urls.redisUrl, redisPrefix),
    async endpoint(account, url) {
      const row = await insertEndpoint(db, {
        accountId: account,
        url,
        events: null,
        description: null,
        secret: generateSecret(),
      });
      return { id: row.id, secret: row.secret };
    },
    async close() {
      for (const o of owned) {
        await o.dispatcher.stop({ abort: true });
        await o.close();
      }
      await publisher.close();
      await kv.close();
      await db.close();
      await deleteByPrefix(urls.redisUrl, redisPrefix);
      await vhost.drop();
      await database.drop();
    },
  };
}
