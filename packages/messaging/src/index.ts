import { MESSAGES, type QueueName } from '@skiptrace/contracts';
import type { BusLogger } from './bus-logger.ts';
import { catalogueBus, type CatalogueBus, type QueueDelivery } from './bus-catalogue.ts';
import { createMemoryBus } from './bus-memory.ts';
import { createRabbitBus } from './bus-rabbitmq.ts';
import { observeBus } from './bus-observed.ts';

export type {
  BusTransport,
  Consumer,
  ConsumeOptions,
  DeadLetter,
  Delivery,
  Handler,
  PublishOptions,
  RequestOptions,
} from './bus.port.ts';
export { BusUnavailableError, RequestTimeoutError } from './bus.port.ts';
export type { CatalogueBus } from './bus-catalogue.ts';
export { catalogueBus, InvalidMessageError } from './bus-catalogue.ts';
export type { BusLogger } from './bus-logger.ts';
export { JsonText, jsonObject, jsonText } from './json-text.ts';
export type { RabbitBus, RabbitBusOptions } from './bus-rabbitmq.ts';
export { createMemoryBus, createRabbitBus, observeBus };

/** The SkipTrace bus: typed by the message catalogue of @skiptrace/contracts (MESSAGES). */
export type MessageBus = CatalogueBus<typeof MESSAGES>;
/** A delivery from the SkipTrace queue Q, e.g. `BusDelivery<'skiptrace.jobs'>`. */
export type BusDelivery<Q extends QueueName> = QueueDelivery<typeof MESSAGES, Q>;

export interface CreateBusOptions {
  /** RabbitMQ URL; without one the bus is in-process (one-process mode, no durability). */
  amqpUrl?: string;
  logger?: BusLogger;
}

/**
 * RabbitMQ when an AMQP URL is configured (waits for the first connection), else
 * in-process; either way with metrics and trace context (observeBus), typed by MESSAGES.
 */
export async function createBus(options: CreateBusOptions = {}): Promise<MessageBus> {
  const transport = options.amqpUrl
    ? await createRabbitBus({ url: options.amqpUrl, logger: options.logger })
    : createMemoryBus();
  return catalogueBus(MESSAGES, observeBus(transport));
}
