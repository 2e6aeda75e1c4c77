/**
 * The bus as services see it: typed by a message catalogue (for SkipTrace, MESSAGES in
 * @skiptrace/contracts), over a BusTransport adapter (RabbitMQ or in-process). The catalogue
 * entry of a message gives its payload schema, its reply, its queue and its packing policy,
 * so a caller names a message or a queue and nothing else: a payload that does not fit, a
 * reply of the wrong shape or a queue that does not exist is a compile error, and every
 * delivery is validated against its schema before the handler sees it.
 */
import type { z } from 'zod';
import type { MessageCatalogue } from '@skiptrace/contracts';
import { describeIssues } from '@skiptrace/runtime';
import type { BusTransport, Consumer, DeadLetter, PublishOptions } from './bus.port.ts';
import type { JsonText } from './json-text.ts';

type Name<C extends MessageCatalogue> = keyof C & string;
type PayloadOf<C extends MessageCatalogue, N extends Name<C>> = z.infer<C[N]['schema']>;
/** Messages a consumer answers (their entry names a reply). */
type RequestName<C extends MessageCatalogue> = {
  [N in Name<C>]: C[N]['reply'] extends z.ZodType ? N : never;
}[Name<C>];
/** The reply to message N (never for a message nobody requests); distributes over a union of names. */
type ReplyOf<C extends MessageCatalogue, N extends Name<C>> = N extends unknown
  ? C[N]['reply'] extends z.ZodType
    ? z.infer<C[N]['reply']>
    : never
  : never;
type QueueOf<C extends MessageCatalogue> = C[Name<C>]['queue'];
/** The messages bound to queue Q. */
type TopicOf<C extends MessageCatalogue, Q extends QueueOf<C>> = {
  [N in Name<C>]: C[N]['queue'] extends Q ? N : never;
}[Name<C>];

/** What a caller may set when sending: packing is the catalogue's decision, not the caller's. */
type SendOptions = Omit<PublishOptions, 'pack'>;

/** One delivery of message N, its payload validated against N's schema. */
interface CatalogueDelivery<C extends MessageCatalogue, N extends Name<C>> {
  topic: N;
  payload: PayloadOf<C, N>;
  messageId: string;
  headers: Record<string, string>;
  /** 1 on the first delivery, counts up on each redelivery. */
  attempt: number;
  /** Answers a request() now, before the handler settles (see Delivery.reply); a JsonText goes as it is. */
  reply(value: ReplyOf<C, N> | JsonText<ReplyOf<C, N>>): void;
}

/** A delivery of any of the messages bound to queue Q, told apart by `topic`. */
export type QueueDelivery<C extends MessageCatalogue, Q extends QueueOf<C>> = {
  [N in TopicOf<C, Q>]: CatalogueDelivery<C, N>;
}[TopicOf<C, Q>];

/**
 * Resolving acknowledges the message; for a requested message the resolved value (unless
 * reply() answered first) is the reply. Throwing redelivers it until maxAttempts, then
 * dead-letters it.
 */
type QueueHandler<C extends MessageCatalogue, Q extends QueueOf<C>> = (
  delivery: QueueDelivery<C, Q>,
) => Promise<ReplyOf<C, TopicOf<C, Q>> | void>;

interface QueueConsumeOptions {
  /** Handlers one consumer runs at most (also the broker's prefetch). */
  prefetch: number;
  /** Deliveries before a failing message goes to `<queue>.dlq` (default 5). */
  maxAttempts?: number;
}

export interface CatalogueBus<C extends MessageCatalogue> {
  readonly kind: BusTransport['kind'];
  /**
   * Resolves once the broker has durably accepted the message (publisher confirm). A payload
   * already encoded (JsonText, e.g. from jsonObject) is sent as it is.
   */
  publish<N extends Name<C>>(
    name: N,
    payload: PayloadOf<C, N> | JsonText<PayloadOf<C, N>>,
    options?: SendOptions,
  ): Promise<void>;
  /** Publishes and waits for the consumer's reply; rejects with RequestTimeoutError after timeoutMs. */
  request<N extends RequestName<C>>(
    name: N,
    payload: PayloadOf<C, N>,
    options: SendOptions & { timeoutMs: number },
  ): Promise<ReplyOf<C, N>>;
  /**
   * request(), resolving to the reply's JSON text (UTF-8) as it arrived, undecoded and
   * unvalidated (replies are typed, not validated: see catalogueBus): for a caller that
   * passes the reply on as it is.
   */
  requestJson<N extends RequestName<C>>(
    name: N,
    payload: PayloadOf<C, N>,
    options: SendOptions & { timeoutMs: number },
  ): Promise<Buffer>;
  /** Consumes the queue, bound to every message the catalogue sends to it. */
  consume<Q extends QueueOf<C>>(queue: Q, options: QueueConsumeOptions, handler: QueueHandler<C, Q>): Promise<Consumer>;
  /** Reads (and removes) dead letters of a queue; their payloads are as received, unvalidated. */
  takeDeadLetters(queue: QueueOf<C>, limit: number): Promise<DeadLetter[]>;
  /** Messages waiting in a queue (0 when it does not exist). */
  depth(queue: QueueOf<C>): Promise<number>;
  /** True while connected (readiness). */
  isReady(): boolean;
  /** Stops consumers, waits for in-flight work and confirms, closes connections. Idempotent. */
  close(): Promise<void>;
}

/** A delivery whose payload does not fit its catalogue schema; it is retried and dead-lettered like any failure. */
export class InvalidMessageError extends Error {
  override name = 'InvalidMessageError';
}

/**
 * Types `transport` by `catalogue`. Publishing packs what the catalogue says may be packed;
 * consuming binds the queue to the catalogue's messages for it and validates each payload
 * against the entry's schema, or its deliveryCheck when it has one (a payload that does not
 * fit throws InvalidMessageError, so it ends in the dead letters with that reason). Replies are typed, not validated: the consumer's handler is checked
 * against the reply type at compile time, and validating on the requester's hot path would
 * only check the same code twice.
 */
export function catalogueBus<C extends MessageCatalogue>(catalogue: C, transport: BusTransport): CatalogueBus<C> {
  const topicsOf = (queue: string): string[] =>
    Object.keys(catalogue).filter((name) => catalogue[name]!.queue === queue);
  const packed = (name: string, options: SendOptions | undefined): PublishOptions => ({
    ...options,
    pack: catalogue[name]!.pack,
  });
  return {
    kind: transport.kind,
    publish: (name, payload, options) => transport.publish(name, payload, packed(name, options)),
    request: async (name, payload, options) =>
      (await transport.request(name, payload, { ...packed(name, options), timeoutMs: options.timeoutMs })) as never,
    requestJson: (name, payload, options) =>
      transport.requestJson(name, payload, { ...packed(name, options), timeoutMs: options.timeoutMs }),
    consume(queue, options, handler) {
      return transport.consume({ queue, topics: topicsOf(queue), ...options }, async (delivery) => {
        const entry = catalogue[delivery.topic];
        if (!entry || entry.queue !== queue) {
          throw new InvalidMessageError(`${delivery.topic} is not a message of queue ${queue}`);
        }
        const parsed = (entry.deliveryCheck ?? entry.schema).safeParse(delivery.payload);
        if (!parsed.success)
          throw new InvalidMessageError(`${delivery.topic} payload: ${describeIssues(parsed.error)}`);
        const typed = {
          topic: delivery.topic,
          payload: parsed.data,
          messageId: delivery.messageId,
          headers: delivery.headers,
          attempt: delivery.attempt,
          reply: delivery.reply,
        };
        return handler(typed as QueueDelivery<C, typeof queue>);
      });
    },
    takeDeadLetters: (queue, limit) => transport.takeDeadLetters(queue, limit),
    depth: (queue) => transport.depth(queue),
    isReady: () => transport.isReady(),
    close: () => transport.close(),
  };
}
