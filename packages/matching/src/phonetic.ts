/**
 * Double Metaphone codes (Lawrence Philips, 2000; the `double-metaphone` package, MIT) of
 * upper-case ASCII words, remembered: names and street names repeat, and a code costs a
 * few microseconds. Two words "sound alike" when any primary or secondary code is shared.
 */
import { doubleMetaphone } from 'double-metaphone';

const MAX_CACHED = 50_000;
const cache = new Map<string, readonly [string, string]>();

export function metaphone(word: string): readonly [string, string] {
  let codes = cache.get(word);
  if (codes === undefined) {
    codes = doubleMetaphone(word);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(word, codes);
  }
  return codes;
}

/** The longest Double Metaphone code the two words share ('' when none or a word is empty). */
export function sharedCode(a: string, b: string): string {
  if (a === '' || b === '') return '';
  const [pa, sa] = metaphone(a);
  const [pb, sb] = metaphone(b);
  if (pa === '' || pb === '') return '';
  let best = '';
  for (const x of [pa, sa]) for (const y of [pb, sb]) if (x !== '' && x === y && x.length > best.length) best = x;
  return best;
}
