import type { DeadLetter, Delivery, Handler } from './bus.port.ts';
import { errorMessage } from './bus-logger.ts';
import { Fifo } from './fifo.ts';
import { encodeJson } from './json-text.ts';

/** A message as the in-process bus stores it: the payload stays JSON text, as on the wire. */
export interface StoredMessage {
  topic: string;
  body: string;
  messageId: string;
  headers: Record<string, string>;
  /** 1 on the first delivery. */
  attempt: number;
  /** Set by request(): receives the handler's value as JSON text. */
  onReply?: (body: string) => void;
}

interface Subscriber {
  prefetch: number;
  handler: Handler;
  /** Handlers running now; never more than prefetch. */
  active: number;
  inFlight: Set<Promise<void>>;
}

export interface MemoryQueue {
  readonly maxAttempts: number;
  /** Binding patterns, AMQP topic syntax (`*` one word, `#` zero or more). */
  readonly patterns: Set<string>;
  enqueue(message: StoredMessage): void;
  subscribe(prefetch: number, handler: Handler): { cancel(): Promise<void> };
  depth(): number;
  takeDeadLetters(limit: number): DeadLetter[];
}

/**
 * One named queue: ready messages, competing subscribers served round-robin within their
 * prefetch, redelivery at the back of the queue, dead letters after maxAttempts.
 */
export function createMemoryQueue(maxAttempts: number): MemoryQueue {
  const ready = new Fifo<StoredMessage>();
  const dead = new Fifo<DeadLetter>();
  const subscribers: Subscriber[] = [];
  let cursor = 0;
  let scheduled = false;

  // Dispatch on a later macrotask, never inside publish(), as deliveries from a broker arrive.
  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(dispatch);
  }

  function dispatch(): void {
    scheduled = false;
    for (let sub = pick(); sub && ready.length > 0; sub = pick()) {
      run(sub, ready.shift() as StoredMessage);
    }
  }

  function pick(): Subscriber | undefined {
    for (let i = 0; i < subscribers.length; i++) {
      const index = (cursor + i) % subscribers.length;
      const sub = subscribers[index] as Subscriber;
      if (sub.active < sub.prefetch) {
        cursor = index + 1;
        return sub;
      }
    }
    return undefined;
  }

  function run(sub: Subscriber, message: StoredMessage): void {
    sub.active += 1;
    const work = handle(sub, message).finally(() => {
      sub.active -= 1;
      sub.inFlight.delete(work);
      schedule();
    });
    sub.inFlight.add(work);
  }

  async function handle(sub: Subscriber, message: StoredMessage): Promise<void> {
    const { topic, messageId, attempt } = message;
    let replied = false;
    const delivery: Delivery = {
      topic,
      payload: JSON.parse(message.body),
      messageId,
      headers: { ...message.headers },
      attempt,
      reply(value) {
        if (replied) return;
        replied = true;
        message.onReply?.(encodeJson(value));
      },
    };
    try {
      delivery.reply(await sub.handler(delivery));
    } catch (err) {
      if (attempt >= maxAttempts) {
        dead.push({ payload: JSON.parse(message.body), topic, messageId, reason: errorMessage(err) });
      } else {
        ready.push({ ...message, attempt: attempt + 1 });
      }
    }
  }

  return {
    maxAttempts,
    patterns: new Set(),
    enqueue(message) {
      ready.push(message);
      schedule();
    },
    subscribe(prefetch, handler) {
      const sub: Subscriber = { prefetch, handler, active: 0, inFlight: new Set() };
      subscribers.push(sub);
      schedule();
      return {
        async cancel() {
          const index = subscribers.indexOf(sub);
          if (index >= 0) subscribers.splice(index, 1);
          while (sub.inFlight.size > 0) await Promise.allSettled([...sub.inFlight]);
        },
      };
    },
    depth: () => ready.length,
    takeDeadLetters: (limit) => dead.take(limit),
  };
}

/** AMQP topic-exchange matching: words split on '.', `*` is one word, `#` zero or more. */
export function topicMatches(pattern: string, key: string): boolean {
  return matchWords(pattern.split('.'), 0, key.split('.'), 0);
}

function matchWords(pattern: string[], i: number, key: string[], j: number): boolean {
  if (i === pattern.length) return j === key.length;
  const word = pattern[i];
  if (word === '#') {
    for (let rest = j; rest <= key.length; rest++) {
      if (matchWords(pattern, i + 1, key, rest)) return true;
    }
    return false;
  }
  return j < key.length && (word === '*' || word === key[j]) && matchWords(pattern, i + 1, key, j + 1);
}
