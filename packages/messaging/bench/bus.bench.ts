/**
 * Publish-confirm and publish→consume throughput for both adapters.
 *   node packages/messaging/bench/bus.bench.ts   (AMQP_URL, BENCH_MESSAGES=20000, BENCH_PREFETCH=500)
 * Against RabbitMQ it declares one quorum queue under a throwaway name and deletes it after.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import amqp from 'amqplib';
import type { BusTransport } from '../src/bus.port.ts';
import { createMemoryBus } from '../src/bus-memory.ts';
import { createRabbitBus } from '../src/bus-rabbitmq.ts';

const url = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';
const total = Number(process.env['BENCH_MESSAGES'] ?? 20_000);
const prefetch = Number(process.env['BENCH_PREFETCH'] ?? 500);
const exchange = 'skiptrace-bench';
// ~140 bytes of JSON, close to a skip-trace job envelope.
const payload = (n: number): unknown => ({
  jobId: randomUUID(),
  n,
  owner: 'Jane Q. Public',
  address: '12 Elm St, Springfield',
});

interface Result {
  publishConfirm: number;
  backlogConsume: number;
  endToEnd: number;
}

const rate = (count: number, startedAt: number): number => Math.round(count / ((performance.now() - startedAt) / 1000));

function consumedAll(bus: BusTransport, queue: string): { done: Promise<void>; cancel: () => Promise<void> } {
  let seen = 0;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const consumer = bus.consume({ queue, topics: [queue], prefetch }, async () => {
    seen += 1;
    if (seen === total) finish();
  });
  return { done, cancel: async () => (await consumer).cancel() };
}

async function measure(bus: BusTransport, queue: string): Promise<Result> {
  // Declare the queue (and its binding) first, so publishes are routed, not dropped.
  await (await bus.consume({ queue, topics: [queue], prefetch }, async () => {})).cancel();

  let startedAt = performance.now();
  await Promise.all(Array.from({ length: total }, (_, n) => bus.publish(queue, payload(n))));
  const publishConfirm = rate(total, startedAt);

  startedAt = performance.now();
  const backlog = consumedAll(bus, queue);
  await backlog.done;
  const backlogConsume = rate(total, startedAt);
  await backlog.cancel();

  const live = consumedAll(bus, queue);
  startedAt = performance.now();
  await Promise.all(Array.from({ length: total }, (_, n) => bus.publish(queue, payload(n))));
  await live.done;
  const endToEnd = rate(total, startedAt);
  await live.cancel();
  return { publishConfirm, backlogConsume, endToEnd };
}

async function rabbitVersion(): Promise<string> {
  const connection = await amqp.connect(url);
  const version = String(connection.connection.serverProperties.version ?? 'unknown');
  await connection.close();
  return version;
}

async function dropQueue(queue: string): Promise<void> {
  const connection = await amqp.connect(url);
  const channel = await connection.createChannel();
  await channel.deleteQueue(queue);
  await channel.deleteQueue(`${queue}.dlq`);
  await channel.deleteExchange(exchange);
  await connection.close();
}

const results: Record<string, Result> = {};
results['memory'] = await measure(createMemoryBus(), 'bench');

const queue = `bench-${randomUUID().slice(0, 8)}`;
const rabbit = await createRabbitBus({ url, exchange });
try {
  results[`rabbitmq (window ${1000}, prefetch ${prefetch})`] = await measure(rabbit, queue);
} finally {
  await rabbit.close();
  await dropQueue(queue);
}

console.log(`date: ${new Date().toISOString()}`);
console.log(
  `node ${process.version}, cores ${availableParallelism()}, RabbitMQ ${await rabbitVersion()}, ${total} messages`,
);
console.log('adapter | publish-confirm msg/s | consume backlog msg/s | publish→consume msg/s');
for (const [name, r] of Object.entries(results)) {
  console.log(`${name} | ${r.publishConfirm} | ${r.backlogConsume} | ${r.endToEnd}`);
}
