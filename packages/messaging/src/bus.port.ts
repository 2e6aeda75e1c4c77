import { DependencyUnavailableError } from '@skiptrace/runtime';
/**
 * The message-bus transport port. Two adapters implement it: RabbitMQ (amqplib) for production
 * and an in-process bus for the one-process mode. One behaviour suite runs against both.
 *
 * Topology: every message is published to one topic exchange under a routing key
 * (its catalogue name, e.g. `job.skiptrace`, `event.plant.added`). Consumers declare a
 * named durable queue bound to one or more routing keys; several processes consuming
 * the same queue share its messages (competing consumers).
 *
 * Services do not use this port directly: they get `MessageBus` (createBus), this transport
 * typed by the message catalogue of @skiptrace/contracts (bus-catalogue.ts, ADR 0006).
 */
export interface PublishOptions {
  /** Stable id for idempotent consumers; generated when absent. */
  messageId?: string;
  /** String headers carried with the message. */
  headers?: Record<string, string>;
  /**
   * May share one broker message with others published to the same topic in the same turn
   * of the event loop (a "pack"). Consumers still see, settle, retry and dead-letter each
   * message on its own; only the broker's per-message cost is shared. For small, frequent
   * messages; not for work that should spread over several consumers message by message.
   */
  pack?: boolean;
}

export interface RequestOptions extends PublishOptions {
  /** How long request() waits for the consumer's reply, in milliseconds. */
  timeoutMs: number;
}

export interface Delivery {
  /** Routing key the message was published under. */
  topic: string;
  payload: unknown;
  messageId: string;
  headers: Record<string, string>;
  /** 1 on the first delivery, counts up on each redelivery. */
  attempt: number;
  /**
   * Answers a request() now, before the handler settles (which still decides ack or
   * redelivery); the handler's value is then not sent. Only the first reply counts, and
   * it does nothing for a message that was not sent with request(). It uses no `this`, so
   * it may be passed on as it is.
   */
  reply(value: unknown): void;
}

/**
 * Resolving acknowledges the message (and its value is the reply when the publisher
 * used request()); throwing makes it redelivered until maxAttempts, then dead-lettered.
 */
export type Handler = (delivery: Delivery) => Promise<unknown>;

export interface ConsumeOptions {
  /** Durable queue name; processes using the same name share the work. */
  queue: string;
  /** Routing keys bound to the queue. */
  topics: string[];
  /**
   * Handlers one consumer runs at most. Also the broker's prefetch, so with packed
   * messages more than this may be held in memory, waiting for a handler slot.
   */
  prefetch: number;
  /** Deliveries before a failing message goes to `<queue>.dlq` (default 5). */
  maxAttempts?: number;
}

export interface Consumer {
  /** Stops receiving and waits for in-flight handlers to finish. */
  cancel(): Promise<void>;
}

export interface DeadLetter {
  payload: unknown;
  topic: string;
  messageId: string;
  reason: string;
}

export interface BusTransport {
  readonly kind: 'rabbitmq' | 'memory';
  /** Resolves once the broker has durably accepted the message (publisher confirm). */
  publish(topic: string, payload: unknown, options?: PublishOptions): Promise<void>;
  /**
   * Publishes and waits for the consumer's reply; rejects with RequestTimeoutError after timeoutMs.
   * Payloads and replies go as JSON; a JsonText is sent as the text it holds.
   */
  request(topic: string, payload: unknown, options: RequestOptions): Promise<unknown>;
  /**
   * request(), resolving to the reply's JSON text (UTF-8) as it arrived, not decoded: for a
   * caller that passes the reply on as it is (the gateway writes it to the HTTP response).
   */
  requestJson(topic: string, payload: unknown, options: RequestOptions): Promise<Buffer>;
  consume(options: ConsumeOptions, handler: Handler): Promise<Consumer>;
  /**
   * Reads (and removes) dead letters from `<queue>.dlq`; for operators and tests. Stops once
   * it has `limit`; a pack the broker dead-lettered whole (a consumer crashing on it) is
   * read as one and yields every message in it, so a call may return a few more.
   */
  takeDeadLetters(queue: string, limit: number): Promise<DeadLetter[]>;
  /** Messages waiting in a queue (0 when it does not exist); drives autoscaling and progress. */
  depth(queue: string): Promise<number>;
  /** True while connected (readiness). */
  isReady(): boolean;
  /** Stops consumers, waits for in-flight work and confirms, closes connections. Idempotent. */
  close(): Promise<void>;
}

export class RequestTimeoutError extends Error {
  override name = 'RequestTimeoutError';
}

/** The broker cannot take or answer the message now: the API answers 503 with Retry-After. */
export class BusUnavailableError extends DependencyUnavailableError {
  override name = 'BusUnavailableError';
  constructor(message: string, options?: ErrorOptions) {
    super('the broker', message, options);
  }
}
