import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import { arrayLiteral } from '../src/array-literal.ts';

const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils') as { prepareValue: (v: unknown) => unknown };

describe('arrayLiteral', () => {
  it("writes the literal node-postgres's own encoder writes", () => {
    const arrays: unknown[][] = [
      [],
      [1, 2, 3],
      [0, -1.5, 1e21, Number.NaN],
      [true, false],
      [10n, 2n ** 70n],
      ['', 'a', 'two words', 'comma,brace{}', 'NULL', 'é ✓'],
      ['quote"inside', 'back\\slash', '\\"both"\\', '"'],
      [null, 'a', undefined, 1],
      [null],
      ['+15551234567', '+15557654321'],
      Array.from({ length: 1000 }, (_, i) => (i % 7 === 0 ? null : i % 3 === 0 ? `k"${i}\\` : `key:${i}`)),
    ];
    for (const values of arrays) expect(arrayLiteral(values)).toBe(prepareValue(values));
  });

  it('leaves nested arrays, Buffers, Dates and objects to the driver', () => {
    for (const values of [[[1, 2]], [Buffer.from('ab')], [new Date(0)], [{ a: 1 }], ['a', new Uint8Array(1)]]) {
      expect(arrayLiteral(values)).toBeUndefined();
    }
  });
});
