/** Nickname equivalence over NICKNAME_GROUPS: one hop, symmetric, never transitive. */
import { NICKNAME_GROUPS } from './tables/nicknames.ts';

const GROUPS_BY_NAME: ReadonlyMap<string, readonly number[]> = (() => {
  const map = new Map<string, number[]>();
  NICKNAME_GROUPS.forEach((group, id) => {
    for (const name of new Set(group.split(' '))) {
      const ids = map.get(name);
      if (ids === undefined) map.set(name, [id]);
      else ids.push(id);
    }
  });
  return map;
})();

/** True when some single group holds both names (BOB~ROBERT, BOBBY~ROB; ALBERT≁ALAN). */
export function areNicknames(a: string, b: string): boolean {
  if (a === b) return true;
  const groupsA = GROUPS_BY_NAME.get(a);
  const groupsB = GROUPS_BY_NAME.get(b);
  if (groupsA === undefined || groupsB === undefined) return false;
  for (const id of groupsA) if (groupsB.includes(id)) return true;
  return false;
}

/** The formal names (first word of each group) that `name` belongs to: LIZ → [ELIZABETH]. */
export function formalNamesFor(name: string): string[] {
  const ids = GROUPS_BY_NAME.get(name) ?? [];
  return ids.map((id) => (NICKNAME_GROUPS[id] as string).split(' ')[0] as string);
}

/** Every other name sharing a group with `name` (used by the demo generator and tests). */
export function nicknamesOf(name: string): string[] {
  const out = new Set<string>();
  for (const id of GROUPS_BY_NAME.get(name) ?? []) {
    for (const other of (NICKNAME_GROUPS[id] as string).split(' ')) if (other !== name) out.add(other);
  }
  return [...out];
}
