/**
 * Groups items added under the same key during one turn of the event loop and hands each
 * group to `flush` once the turn is over (setImmediate), or at once when a group reaches
 * its size limits. Nothing waits on a timer: at low load every group holds one item and
 * leaves in the next turn; under load groups grow by themselves.
 */
export interface TurnGroupLimits {
  /** Most items in one group. */
  maxItems: number;
  /** Most bytes (as the caller counts them) in one group; a single larger item goes alone. */
  maxBytes: number;
}

export interface TurnGroups<T> {
  add(key: string, item: T, bytes: number): void;
  /** Flushes every open group now. */
  flushAll(): void;
}

interface Group<T> {
  items: T[];
  bytes: number;
}

export function createTurnGroups<T>(limits: TurnGroupLimits, flush: (key: string, items: T[]) => void): TurnGroups<T> {
  let groups = new Map<string, Group<T>>();
  let scheduled = false;

  function flushAll(): void {
    scheduled = false;
    const ready = groups;
    groups = new Map();
    for (const [key, group] of ready) flush(key, group.items);
  }

  return {
    add(key, item, bytes) {
      let group = groups.get(key);
      if (group && group.bytes + bytes > limits.maxBytes) {
        groups.delete(key);
        flush(key, group.items);
        group = undefined;
      }
      if (!group) {
        group = { items: [], bytes: 0 };
        groups.set(key, group);
      }
      group.items.push(item);
      group.bytes += bytes;
      if (group.items.length >= limits.maxItems) {
        groups.delete(key);
        flush(key, group.items);
      }
      if (!scheduled && groups.size > 0) {
        scheduled = true;
        setImmediate(flushAll);
      }
    },
    flushAll,
  };
}
