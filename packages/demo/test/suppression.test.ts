import { describe, expect, it } from '@jest/globals';
import { normalizePhone } from '@skiptrace/matching';
import {
  demoSuppressionLists,
  demoSuppressionOf,
  generateContacts,
  generateOwnerWorld,
  type DemoSuppressionKind,
} from '../src/index.ts';

/** How many of `numbers` are on each list. */
function flagged(numbers: string[]): Record<DemoSuppressionKind, number> {
  const counts = { dnc: 0, litigator: 0 };
  for (const number of numbers) {
    const kind = demoSuppressionOf(number);
    if (kind) counts[kind]++;
  }
  return counts;
}

describe('the demo suppression lists', () => {
  const lists = demoSuppressionLists();

  it('are deterministic, sorted, apart, and hold fictional numbers only', () => {
    expect(demoSuppressionLists()).toEqual(lists);
    for (const kind of ['dnc', 'litigator'] as const) {
      expect(lists[kind]).toEqual([...lists[kind]].sort());
      for (const number of lists[kind]) {
        expect(number).toMatch(/^\+1[2-9]\d{2}55501\d{2}$/);
        expect(demoSuppressionOf(number)).toBe(kind);
      }
    }
    const dnc = new Set(lists.dnc);
    expect(lists.litigator.filter((n) => dnc.has(n))).toEqual([]);
    // A fixed pair, so that a change to the rule is a visible change.
    expect([lists.dnc.length, lists.litigator.length]).toEqual([2751, 276]);
  });

  it('flag a realistic small share of the demo contacts’ phones: both kinds, about 10 % and 1 %', () => {
    const phones = [...generateContacts({ rows: 3000, seed: 42 })]
      .flatMap((row) => [row.phone_1, row.phone_2])
      .filter((p): p is string => p !== null)
      .map((p) => normalizePhone(p)!);
    const counts = flagged(phones);
    expect(counts.dnc / phones.length).toBeGreaterThan(0.06);
    expect(counts.dnc / phones.length).toBeLessThan(0.15);
    expect(counts.litigator / phones.length).toBeGreaterThan(0.004);
    expect(counts.litigator / phones.length).toBeLessThan(0.025);
  });

  it('flag phones of the owner world too (the same rule, wherever a number appears)', () => {
    const world = generateOwnerWorld({ people: 300, seed: 2026 });
    const counts = flagged(world.people.flatMap((p) => p.phones.map((ph) => normalizePhone(ph.number)!)));
    expect(counts.dnc).toBeGreaterThan(0);
    expect(counts.litigator).toBeGreaterThan(0);
  });
});
