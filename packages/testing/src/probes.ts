/**
 * One-shot reachability checks: open a connection, run a trivial command, close. Each
 * resolves true or false and never retries, so callers decide how long to wait.
 */
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import pg from 'pg';

/** Per-attempt connection timeout (ms). */
const CONNECT_TIMEOUT_MS = 2000;

export async function postgresReady(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function redisReady(url: string): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    // ioredis arms this on disconnect even when the socket is already gone (default 2 s).
    disconnectTimeout: 100,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

export async function rabbitReady(url: string): Promise<boolean> {
  try {
    const connection = await amqp.connect(url, { timeout: CONNECT_TIMEOUT_MS });
    connection.on('error', () => undefined);
    const channel = await connection.createChannel();
    await channel.checkExchange('amq.direct');
    await connection.close();
    return true;
  } catch {
    return false;
  }
}
