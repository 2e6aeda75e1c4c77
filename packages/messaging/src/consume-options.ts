import type { ConsumeOptions } from './bus.port.ts';

export const DEFAULT_MAX_ATTEMPTS = 5;

export type ResolvedConsumeOptions = Required<ConsumeOptions>;

/**
 * Checks what both adapters rely on, so a bad option fails at consume() on either one
 * rather than as a broker channel error or a consumer that never receives anything.
 */
export function resolveConsumeOptions(options: ConsumeOptions): ResolvedConsumeOptions {
  const { queue, topics, prefetch, maxAttempts = DEFAULT_MAX_ATTEMPTS } = options;
  if (queue.length === 0 || queue.startsWith('amq.')) {
    throw new RangeError(`queue name must be non-empty and not start with "amq.": "${queue}"`);
  }
  if (topics.length === 0) throw new RangeError(`queue ${queue}: at least one topic is needed`);
  // Prefetch 0 means "unbounded" to RabbitMQ; the port promises a bound, so require one.
  if (!Number.isInteger(prefetch) || prefetch < 1 || prefetch > 65_535) {
    throw new RangeError(`queue ${queue}: prefetch must be an integer in 1..65535, got ${prefetch}`);
  }
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RangeError(`queue ${queue}: maxAttempts must be a positive integer, got ${maxAttempts}`);
  }
  return { queue, topics: [...topics], prefetch, maxAttempts };
}
