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

/** True when both words are non-empty and share a Double Metaphone code. */
export function soundAlike(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  const [pa, sa] = metaphone(a);
  const [pb, sb] = metaphone(b);
  if (pa === '' || pb === '') return false;
  return pa === pb || pa === sb || sa === pb || (sa !== '' && sa === sb);
}
