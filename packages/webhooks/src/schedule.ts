import type { KeyValueStore } from '@skiptrace/kv';
import { member, parseMember } from './message.repository.ts';

/**
 * The delivery schedule in the key-value store: one member per pending message
 * (`member(messageId, endpointId)`), grouped by endpoint so that a claim takes each
 * endpoint's due members up to what this dispatcher can hold for it, and an endpoint
 * with a backlog (a dead one being retried) never hides the due members of others.
 */
export function scheduleMessage(
  kv: KeyValueStore,
  name: string,
  messageId: string,
  endpointId: string,
  dueAtMs: number,
) {
  return kv.schedule(name, endpointId, member(messageId, endpointId), dueAtMs);
}

/** Moves a member (as claimed) to dueAtMs. */
export function reschedule(kv: KeyValueStore, name: string, value: string, dueAtMs: number) {
  return kv.schedule(name, parseMember(value).endpointId, value, dueAtMs);
}

export function unschedule(kv: KeyValueStore, name: string, value: string) {
  return kv.unschedule(name, parseMember(value).endpointId, value);
}
