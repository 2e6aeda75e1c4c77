/**
 * Metrics and trace context for any BusTransport adapter, so the in-process and the RabbitMQ
 * bus report the same series and carry traces the same way. Publishing adds the active
 * span's W3C `traceparent` to the message headers; a pack keeps each message's own headers
 * (packEntry), so the context survives packing. Each handled message runs in a consumer
 * span whose parent is the context its headers carry.
 */
import {
  extractTraceContext,
  injectTraceHeaders,
  recordBusConsumer,
  recordBusMessage,
  SpanKind,
  withSpan,
} from '@skiptrace/runtime';
import type { Consumer, BusTransport, PublishOptions } from './bus.port.ts';
import { resolveConsumeOptions } from './consume-options.ts';

function traced<O extends PublishOptions>(options: O | undefined): O {
  return { ...options, headers: injectTraceHeaders({ ...options?.headers }) } as O;
}

export function observeBus(bus: BusTransport): BusTransport {
  const system = bus.kind === 'rabbitmq' ? 'rabbitmq' : 'skiptrace-memory';
  const producer = (topic: string) => ({
    kind: SpanKind.PRODUCER,
    attributes: { 'messaging.system': system, 'messaging.destination.name': topic, 'messaging.operation.type': 'send' },
  });
  /** A request sent in a producer span; counted as published once it is on its way. */
  const sent = <T>(topic: string, send: () => Promise<T>): Promise<T> =>
    withSpan(`send ${topic}`, producer(topic), async () => {
      const pending = send();
      recordBusMessage('published', topic);
      return pending;
    });
  return {
    kind: bus.kind,
    async publish(topic, payload, options) {
      await withSpan(`send ${topic}`, producer(topic), () => bus.publish(topic, payload, traced(options)));
      recordBusMessage('published', topic);
    },
    request: (topic, payload, options) => sent(topic, () => bus.request(topic, payload, traced(options))),
    requestJson: (topic, payload, options) => sent(topic, () => bus.requestJson(topic, payload, traced(options))),
    async consume(options, handler) {
      const { queue, maxAttempts } = resolveConsumeOptions(options);
      const consumer = await bus.consume(options, (delivery) =>
        withSpan(
          `process ${queue}`,
          {
            kind: SpanKind.CONSUMER,
            parent: extractTraceContext(delivery.headers),
            attributes: {
              'messaging.system': system,
              'messaging.destination.name': queue,
              'messaging.message.id': delivery.messageId,
              'messaging.operation.type': 'process',
              'skiptrace.attempt': delivery.attempt,
            },
          },
          async () => {
            try {
              const value = await handler(delivery);
              recordBusMessage('consumed', queue);
              return value;
            } catch (err) {
              if (delivery.attempt >= maxAttempts) recordBusMessage('dead_lettered', queue);
              throw err;
            }
          },
        ),
      );
      recordBusConsumer(queue, 1);
      let cancelled = false;
      const observed: Consumer = {
        async cancel() {
          if (!cancelled) {
            cancelled = true;
            recordBusConsumer(queue, -1);
          }
          await consumer.cancel();
        },
      };
      return observed;
    },
    takeDeadLetters: (queue, limit) => bus.takeDeadLetters(queue, limit),
    depth: (queue) => bus.depth(queue),
    isReady: () => bus.isReady(),
    close: () => bus.close(),
  };
}
