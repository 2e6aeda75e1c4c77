/**
 * Coalesced acknowledgements for one consumer channel. A quorum queue turns every ack
 * frame into a replicated settle command, so acking messages one by one costs the broker
 * about as much as delivering them. Acks requested in the same turn of the event loop are
 * sent together: the longest run of finished messages at the head of the channel's
 * unsettled deliveries goes as one `multiple` ack, and any finished message behind a
 * still-running one is acked on its own, so a slow message never holds the others' slots
 * (which would stall the consumer at its prefetch).
 *
 * Only finished messages are ever covered by a `multiple` ack: it acknowledges every
 * unsettled delivery up to its tag, and the run stops at the first one still in progress.
 */
export interface AckChannel {
  ack(message: { fields: { deliveryTag: number } }, allUpTo?: boolean): void;
}

export interface Acker {
  /** Registers a delivery as it arrives (tags increase on a channel). */
  received(tag: number): void;
  /** Acks the delivery, coalesced with the others acked in this turn. */
  ack(tag: number): void;
  /** The delivery was settled another way (nack): stop tracking it. */
  settled(tag: number): void;
  /** Sends the acks waiting for the end of the turn now (before closing the channel). */
  flush(): void;
}

const frame = (tag: number) => ({ fields: { deliveryTag: tag } });

export function createAcker(channel: AckChannel, isOpen: () => boolean): Acker {
  const unsettled: number[] = []; // in delivery order
  const finished = new Set<number>();
  let scheduled = false;

  function flush(): void {
    if (!isOpen()) return;
    let head = 0;
    while (head < unsettled.length && finished.has(unsettled[head]!)) head += 1;
    if (head > 0) {
      channel.ack(frame(unsettled[head - 1]!), head > 1);
      for (const tag of unsettled.splice(0, head)) finished.delete(tag);
    }
    if (finished.size === 0) return;
    for (const tag of finished) {
      channel.ack(frame(tag));
      unsettled.splice(unsettled.indexOf(tag), 1);
    }
    finished.clear();
  }

  return {
    received(tag) {
      unsettled.push(tag);
    },
    ack(tag) {
      finished.add(tag);
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        flush();
      });
    },
    settled(tag) {
      const at = unsettled.indexOf(tag);
      if (at >= 0) unsettled.splice(at, 1);
      finished.delete(tag);
    },
    flush,
  };
}
