import { afterAll, describe, expect, it, jest } from '@jest/globals';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createTestDatabaseUrl } from '../src/postgres.ts';
import { createTestVhost } from '../src/rabbitmq.ts';
import { deleteByPrefix, randomPrefix } from '../src/redis.ts';
import { testUrls } from '../src/services.ts';

// rabbitmqctl takes about a second per call and this file makes six.
jest.setTimeout(30_000);

const urls = testUrls();

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: urls.databaseUrl });
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('createTestDatabaseUrl', () => {
  it('creates a fresh database per call and drops it even with clients connected', async () => {
    const first = await createTestDatabaseUrl('Testing Helpers!');
    const second = await createTestDatabaseUrl('testing_helpers');
    expect(first.name).toMatch(/^testing_helpers_[a-z0-9]+_[0-9a-f]{8}$/);
    expect(second.name).not.toBe(first.name);
    const client = new pg.Client({ connectionString: first.url });
    client.on('error', () => undefined);
    await client.connect();
    await client.query('CREATE TABLE t (id int)');
    expect((await client.query('SELECT current_database() AS db')).rows[0].db).toBe(first.name);
    await first.drop();
    await first.drop();
    await second.drop();
    expect(await databaseExists(first.name)).toBe(false);
    expect(await databaseExists(second.name)).toBe(false);
    await client.end().catch(() => undefined);
  });
});

describe('deleteByPrefix', () => {
  const redis = new Redis(urls.redisUrl);
  const base = randomPrefix('testing');
  afterAll(async () => {
    await deleteByPrefix(urls.redisUrl, base);
    redis.disconnect();
  });

  it('deletes the keys under the prefix and nothing else, glob characters taken literally', async () => {
    const prefix = `${base}glob*[x]:`;
    await redis.set(`${prefix}a`, '1');
    await redis.sadd(`${prefix}b`, 'm');
    await redis.set(`${base}globZ[x]:keep`, '1');
    await redis.set(`${base}globbing:keep`, '1');
    await expect(deleteByPrefix(urls.redisUrl, prefix)).resolves.toBe(2);
    await expect(redis.exists(`${prefix}a`, `${prefix}b`)).resolves.toBe(0);
    await expect(redis.exists(`${base}globZ[x]:keep`, `${base}globbing:keep`)).resolves.toBe(2);
    await expect(deleteByPrefix(urls.redisUrl, '')).rejects.toThrow(/empty prefix/);
  });
});

describe('createTestVhost', () => {
  it('gives each caller its own vhost, and drop removes it', async () => {
    const mine = await createTestVhost('testing');
    const theirs = await createTestVhost('testing');
    try {
      expect(mine.isolated).toBe(true);
      expect(mine.vhost).not.toBe(theirs.vhost);
      const connection = await amqp.connect(mine.url);
      const channel = await connection.createChannel();
      await channel.assertQueue('only-here');
      await connection.close();
      const other = await amqp.connect(theirs.url);
      other.on('error', () => undefined);
      const otherChannel = await other.createChannel();
      otherChannel.on('error', () => undefined);
      await expect(otherChannel.checkQueue('only-here')).rejects.toThrow(/NOT_FOUND/);
      await other.close().catch(() => undefined);
    } finally {
      await mine.drop();
      await theirs.drop();
    }
    await expect(amqp.connect(mine.url)).rejects.toThrow();
  });
});
