import { describe, expect, it } from '@jest/globals';
import { normalizePhone } from '@skiptrace/matching';
import { lineType, toE164 } from '../src/phone-cache.ts';

/** Deterministic pseudo-random integers (LCG), so a failure reproduces. */
function* integers(seed: number): Generator<number> {
  let state = seed;
  for (;;) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    yield state;
  }
}

const FORMATS = [
  (d: string) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`,
  (d: string) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`,
  (d: string) => `+1 ${d}`,
  (d: string) => `1-${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`,
  (d: string) => d,
];

describe('toE164', () => {
  it('agrees with matching.normalizePhone, memo or not, on numbers sharing and not sharing prefixes', () => {
    const random = integers(7);
    const prefixes = Array.from({ length: 300 }, () => String(200_000 + (random.next().value % 800_000)));
    // Caribbean NANP prefixes whose validity depends on the line number (not memoised).
    prefixes.push('246521', '246522', '876606');
    // Puerto Rico (memoised like the US and Canada).
    prefixes.push('787555', '787200', '939999');
    for (let i = 0; i < 6000; i++) {
      const digits =
        prefixes[random.next().value % prefixes.length]! + String(random.next().value % 10_000).padStart(4, '0');
      const text = FORMATS[random.next().value % FORMATS.length]!(digits);
      expect([text, toE164(text)]).toEqual([text, normalizePhone(text)]);
    }
  });

  it('leaves extensions, letters and other countries to the full parser', () => {
    for (const text of ['512-555-0123 ext 4', '+44 20 7946 0958', 'call me', '555-0123', '']) {
      expect(toE164(text)).toBe(normalizePhone(text));
    }
  });
});

describe('lineType', () => {
  it('maps data labels through matching.phoneType', () => {
    expect(['Cell', 'mobile', 'Landline', 'VoIP', '', 'pager'].map(lineType)).toEqual([
      'mobile',
      'mobile',
      'landline',
      'voip',
      'unknown',
      'unknown',
    ]);
  });
});
