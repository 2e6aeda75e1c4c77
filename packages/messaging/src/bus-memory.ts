/**
 * In-process BusTransport for the one-process mode and for tests.
 *
 * Not for: durability (queued messages live in this process's memory and are gone after a
 * restart or crash), several processes (queues are not shared between them), or judging
 * broker throughput. It keeps the RabbitMQ adapter's semantics otherwise: topic routing to
 * named queues (fan-out across queues, competing consumers within one), the prefetch bound,
 * attempts and dead-lettering with the handler's error as reason, request/reply with a
 * timeout, depth, and a close() that waits for running handlers. Payloads go through
 * JSON as on the wire, so a handler sees what it would see behind the broker.
 */
import { randomUUID } from 'node:crypto';
import { BusUnavailableError, RequestTimeoutError } from './bus.port.ts';
import type { Consumer, BusTransport, PublishOptions, RequestOptions } from './bus.port.ts';
import { resolveConsumeOptions } from './consume-options.ts';
import { encodeJson, parseReply } from './json-text.ts';
import { createMemoryQueue, topicMatches } from './memory-queue.ts';
import type { MemoryQueue, StoredMessage } from './memory-queue.ts';

export function createMemoryBus(): BusTransport {
  const queues = new Map<string, MemoryQueue>();
  const consumers = new Set<Consumer>();
  const pending = new Map<string, { reject: (err: Error) => void; timer: NodeJS.Timeout }>();
  let closing: Promise<void> | undefined;

  function assertOpen(): void {
    if (closing) throw new BusUnavailableError('message bus is closed');
  }

  function toMessage(topic: string, payload: unknown, options?: PublishOptions): StoredMessage {
    const body = encodeJson(payload);
    const messageId = options?.messageId ?? randomUUID();
    return { topic, body, messageId, headers: { ...options?.headers }, attempt: 1 };
  }

  // Like a topic exchange: a copy for every queue with a matching binding, none if unbound.
  function route(message: StoredMessage): void {
    for (const queue of queues.values()) {
      if ([...queue.patterns].some((pattern) => topicMatches(pattern, message.topic))) {
        queue.enqueue({ ...message });
      }
    }
  }

  // The reply's JSON text, as the consumer encoded it.
  function replyOf(topic: string, payload: unknown, options: RequestOptions): Promise<string> {
    assertOpen();
    const id = randomUUID();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new RequestTimeoutError(`no reply to ${topic} within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      pending.set(id, { reject, timer });
      // The first reply wins; later ones (fan-out, or after the timeout) are dropped.
      const onReply = (body: string): void => {
        if (!pending.delete(id)) return;
        clearTimeout(timer);
        resolve(body);
      };
      route({ ...toMessage(topic, payload, options), onReply });
    });
  }

  return {
    kind: 'memory',

    async publish(topic, payload, options) {
      assertOpen();
      route(toMessage(topic, payload, options));
    },

    async request(topic, payload, options) {
      return parseReply(await replyOf(topic, payload, options));
    },

    async requestJson(topic, payload, options) {
      return Buffer.from(await replyOf(topic, payload, options));
    },

    async consume(options, handler) {
      assertOpen();
      const { queue: name, topics, prefetch, maxAttempts } = resolveConsumeOptions(options);
      let queue = queues.get(name);
      if (!queue) {
        queue = createMemoryQueue(maxAttempts);
        queues.set(name, queue);
      } else if (queue.maxAttempts !== maxAttempts) {
        // RabbitMQ refuses to redeclare a queue with other arguments; so do we.
        throw new Error(`queue ${name} exists with maxAttempts ${queue.maxAttempts}, not ${maxAttempts}`);
      }
      for (const topic of topics) queue.patterns.add(topic);
      const subscription = queue.subscribe(prefetch, handler);
      const consumer: Consumer = {
        async cancel() {
          consumers.delete(consumer);
          await subscription.cancel();
        },
      };
      consumers.add(consumer);
      return consumer;
    },

    async takeDeadLetters(queue, limit) {
      assertOpen();
      return queues.get(queue)?.takeDeadLetters(limit) ?? [];
    },

    async depth(queue) {
      assertOpen();
      return queues.get(queue)?.depth() ?? 0;
    },

    isReady: () => closing === undefined,

    close() {
      closing ??= (async () => {
        await Promise.all([...consumers].map((consumer) => consumer.cancel()));
        for (const { reject, timer } of pending.values()) {
          clearTimeout(timer);
          reject(new BusUnavailableError('message bus closed before the reply arrived'));
        }
        pending.clear();
      })();
      return closing;
    },
  };
}
