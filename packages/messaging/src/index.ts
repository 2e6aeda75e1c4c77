import type { MessageBus } from './bus.port.ts';
import type { BusLogger } from './bus-logger.ts';
import { createMemoryBus } from './bus-memory.ts';
import { createRabbitBus } from './bus-rabbitmq.ts';
import { observeBus } from './bus-observed.ts';

export type {
  Consumer,
  ConsumeOptions,
  DeadLetter,
  Delivery,
  Handler,
  MessageBus,
  PublishOptions,
  RequestOptions,
} from './bus.port.ts';
export { BusUnavailableError, RequestTimeoutError } from './bus.port.ts';
export type { BusLogger } from './bus-logger.ts';
export type { RabbitBus, RabbitBusOptions } from './bus-rabbitmq.ts';
export { createMemoryBus, createRabbitBus, observeBus };

export interface CreateBusOptions {
  /** RabbitMQ URL; without one the bus is in-process (one-process mode, no durability). */
  amqpUrl?: string;
  logger?: BusLogger;
}

/**
 * RabbitMQ when an AMQP URL is configured (waits for the first connection), else
 * in-process; either way with metrics and trace context (observeBus).
 */
export async function createBus(options: CreateBusOptions = {}): Promise<MessageBus> {
  if (options.amqpUrl) return observeBus(await createRabbitBus({ url: options.amqpUrl, logger: options.logger }));
  return observeBus(createMemoryBus());
}
