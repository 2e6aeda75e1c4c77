/**
 * #22 defect 7 on Redis, where it was observed: 60 parallel wrong-secret requests for one
 * client compared 35–60 secrets against a limit of 10. The reservation is one atomic counter
 * (a Lua INCRBY), so exactly the limit is compared (401) and the rest refused first (429).
 */
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { createRedisKeyValue, type KeyValueStore } from '@skiptrace/kv';
import { createDatabase, type Database } from '@skiptrace/storage';
import { deleteByPrefix, randomPrefix, testUrls } from '@skiptrace/testing';
import { clientCredentialsBurst, startAuth, type RunningAuth } from './harness.ts';

const { redisUrl } = testUrls();
const prefix = randomPrefix('auth-limit');
let db: Database;
let kv: KeyValueStore;
let auth: RunningAuth;

beforeAll(async () => {
  db = createDatabase({});
  await db.migrate();
  kv = createRedisKeyValue({ url: redisUrl, prefix });
  auth = await startAuth(db, kv, { clientAuthFailureLimit: 10 });
}, 60_000);
afterAll(async () => {
  await auth?.close();
  await kv?.close();
  await deleteByPrefix(redisUrl, prefix);
  await db?.close();
});

describe('client-authentication failure limit on Redis', () => {
  it('60 parallel wrong secrets: exactly 10 compared (401), 50 refused before comparing (429)', async () => {
    const c = await auth.service.accounts.createClient({ name: 'Burst target', scopes: 'read' });
    const statuses = await clientCredentialsBurst(auth.url, c.client.clientId, 'guessed-secret', 60);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50);
  });
});
