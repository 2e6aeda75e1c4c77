/**
 * Packing: messages for the same destination in the same turn of the event loop leave as
 * one AMQP message (see PACK_CONTENT_TYPE). On a quorum queue every message is a
 * replicated log entry, a delivery and a settle command, so under load this is most of the
 * broker's cost per request; a group of one is sent as the plain message it always was.
 */
import type { Channel, Options } from 'amqplib';
import { packContent, packEntry, PACK_CONTENT_TYPE, publishProperties, repliesPack } from './rabbitmq-codec.ts';
import { createTurnGroups, type TurnGroupLimits } from './turn-groups.ts';

export const DEFAULT_PACK_LIMITS: TurnGroupLimits = { maxItems: 100, maxBytes: 256 * 1024 };

/** Bytes of a pack entry beyond its payload (ids, headers, punctuation), for the size limit. */
const ENTRY_OVERHEAD = 120;

export interface Outgoing {
  exchange: string;
  topic: string;
  /** The payload, encoded as JSON. */
  body: string;
  properties: Options.Publish;
}

/** Sends one AMQP message; resolves when it is safe (confirmed, or merely written). */
export type Send = (exchange: string, topic: string, content: Buffer, properties: Options.Publish) => Promise<void>;

export interface Packer {
  /**
   * Sends `message`, packed with others for the same exchange and topic in this turn. The
   * messages of one packer share their reply address, if they have one.
   */
  send(message: Outgoing): Promise<void>;
}

interface Waiting extends Outgoing {
  resolve: () => void;
  reject: (err: unknown) => void;
}

export function createPacker(send: Send, limits: TurnGroupLimits = DEFAULT_PACK_LIMITS): Packer {
  const groups = createTurnGroups<Waiting>(limits, (_key, items) => {
    const [first] = items as [Waiting];
    const sent =
      items.length === 1
        ? send(first.exchange, first.topic, Buffer.from(first.body), first.properties)
        : send(first.exchange, first.topic, packContent(items.map((item) => packEntry(item.body, item.properties))), {
            ...publishProperties(undefined, PACK_CONTENT_TYPE),
            replyTo: first.properties.replyTo,
          });
    sent.then(
      () => items.forEach((item) => item.resolve()),
      (err: unknown) => items.forEach((item) => item.reject(err)),
    );
  });
  return {
    send(message) {
      return new Promise((resolve, reject) => {
        groups.add(
          `${message.exchange}\n${message.topic}`,
          { ...message, resolve, reject },
          message.body.length + ENTRY_OVERHEAD,
        );
      });
    },
  };
}

export interface ReplyPacker {
  reply(replyTo: string, correlationId: string, body: string): void;
  /** Sends the replies still waiting for the end of the turn (before closing the channel). */
  flush(): void;
}

/** Replies to requests, packed per reply address; fire-and-forget, as direct reply-to is. */
export function createReplyPacker(channel: Channel, isOpen: () => boolean): ReplyPacker {
  const groups = createTurnGroups<{ correlationId: string; body: string }>(DEFAULT_PACK_LIMITS, (replyTo, items) => {
    if (!isOpen()) return;
    const [first] = items as [{ correlationId: string; body: string }];
    try {
      if (items.length === 1) {
        channel.publish('', replyTo, Buffer.from(first.body), {
          correlationId: first.correlationId,
          contentType: 'application/json',
        });
      } else {
        const { content, properties } = repliesPack(items);
        channel.publish('', replyTo, content, properties);
      }
    } catch {
      // The channel closed in this very turn: the requester is told by its own channel
      // closing or its deadline, as with any reply lost on the way.
    }
  });
  return {
    reply: (replyTo, correlationId, body) => groups.add(replyTo, { correlationId, body }, body.length + ENTRY_OVERHEAD),
    flush: () => groups.flushAll(),
  };
}
