import { describe, expect, it } from '@jest/globals';
import { createTurnGroups } from '../src/turn-groups.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('createTurnGroups', () => {
  it('hands over what one turn added, per key, after the turn and not before', async () => {
    const flushed: [string, number[]][] = [];
    const groups = createTurnGroups<number>({ maxItems: 100, maxBytes: 1000 }, (key, items) =>
      flushed.push([key, items]),
    );
    groups.add('a', 1, 1);
    groups.add('b', 2, 1);
    groups.add('a', 3, 1);
    expect(flushed).toEqual([]);
    await nextTurn();
    expect(flushed).toEqual([
      ['a', [1, 3]],
      ['b', [2]],
    ]);
    groups.add('a', 4, 1);
    await nextTurn();
    expect(flushed.at(-1)).toEqual(['a', [4]]);
  });

  it('closes a group at its item or byte limit at once; an item larger than the limit goes alone', async () => {
    const flushed: number[][] = [];
    const groups = createTurnGroups<number>({ maxItems: 3, maxBytes: 10 }, (_key, items) => flushed.push(items));
    for (const n of [1, 2, 3, 4]) groups.add('k', n, 1);
    expect(flushed).toEqual([[1, 2, 3]]);
    groups.add('k', 5, 9); // 1 + 9 = 10 bytes still fits
    groups.add('k', 6, 50); // over the byte limit: the open group leaves first
    expect(flushed).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    await nextTurn();
    expect(flushed).toEqual([[1, 2, 3], [4, 5], [6]]);
  });

  it('flushAll sends every open group now', () => {
    const flushed: number[][] = [];
    const groups = createTurnGroups<number>({ maxItems: 10, maxBytes: 10 }, (_key, items) => flushed.push(items));
    groups.add('x', 1, 1);
    groups.flushAll();
    expect(flushed).toEqual([[1]]);
  });
});
