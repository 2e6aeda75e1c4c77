/**
 * Given-name equivalence: one hop, symmetric, never transitive. Three sources, all
 * shipped in this package:
 *
 * 1. tables/nicknames-odu.ts — the Old Dominion University nickname lookup
 *    (carltonnorthern/nicknames, Apache-2.0; see NOTICE). Each line is a name followed
 *    by its nicknames or related names; the first name is linked to each of the others,
 *    in both directions (not the others to each other: "bill,william,billy,robert").
 * 2. tables/nicknames.ts — our own groups (English nicknames and common spellings).
 * 3. tables/nicknames-es.ts — Spanish-language hypocoristics.
 *
 * In the two group tables, any two names of one group are linked. So AL links ALBERT
 * and ALAN to AL, but ALBERT is never linked to ALAN through it.
 */
import { NICKNAME_GROUPS } from './tables/nicknames.ts';
import { ODU_NICKNAMES_CSV } from './tables/nicknames-odu.ts';
import { SPANISH_NICKNAME_GROUPS } from './tables/nicknames-es.ts';
import { GIVEN_NAMES } from './tables/given-names.ts';

const LINKS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const links = new Map<string, Set<string>>();
  const link = (a: string, b: string): void => {
    if (a === b || a === '' || b === '') return;
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const set = links.get(x);
      if (set === undefined) links.set(x, new Set([y]));
      else set.add(y);
    }
  };
  for (const line of ODU_NICKNAMES_CSV.split('\n')) {
    // Names are compared as nameTokens leaves them: upper case, letters only ("k.c." → KC).
    const names = line.split(',').map((name) => name.toUpperCase().replace(/[^A-Z]/g, ''));
    const head = names[0] ?? '';
    for (const other of names.slice(1)) link(head, other);
  }
  for (const group of [...NICKNAME_GROUPS, ...SPANISH_NICKNAME_GROUPS]) {
    const names = group.split(' ');
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) link(names[i] as string, names[j] as string);
    }
  }
  return links;
})();

/** True when the two (upper-case) names are linked by one of the tables. */
export function areNicknames(a: string, b: string): boolean {
  if (a === b) return true;
  return LINKS.get(a)?.has(b) ?? false;
}

/** Names known to be given names: every name of the nickname tables and tables/given-names.ts. */
const KNOWN_GIVEN: ReadonlySet<string> = new Set([...LINKS.keys(), ...GIVEN_NAMES]);

/** True when the (upper-case) name is a known given name (not a garbled one). */
export function isKnownGivenName(name: string): boolean {
  return KNOWN_GIVEN.has(name);
}

/** The formal names (first word of each group table entry) that `name` belongs to: LIZ → [ELIZABETH]. */
export function formalNamesFor(name: string): string[] {
  const out: string[] = [];
  for (const group of [...NICKNAME_GROUPS, ...SPANISH_NICKNAME_GROUPS]) {
    const names = group.split(' ');
    if (names.includes(name)) out.push(names[0] as string);
  }
  return out;
}

/** Every name linked to `name` (used by tests and the demo generator). */
export function nicknamesOf(name: string): string[] {
  return [...(LINKS.get(name) ?? [])];
}
