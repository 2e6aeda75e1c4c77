/**
 * The demo's suppression lists: which of its fictional numbers are on the Do-Not-Call
 * registry and on the known-litigator list, so that a demo trace and a demo batch export
 * show both flags. A number is listed by a hash of itself (FNV-1a of its E.164), not by the
 * order of any generator: the same number is flagged wherever it appears — the demo contacts,
 * the owner world, a file from `skiptrace demo-data` — and on every machine. Realistic and
 * small: about one number in ten on the Do-Not-Call list, one in a hundred a litigator's
 * (real registries list far more numbers; a demo where most phones were flagged would show
 * nothing else). The two lists do not overlap.
 */
import { MORE_AREA_CODES } from './owner-world.ts';
import { DEMO_PLACES } from './places.ts';
import { hashString } from './prng.ts';

/** Parts per thousand of the numbers on each list. */
export const DEMO_DNC_PER_MILLE = 100;
export const DEMO_LITIGATOR_PER_MILLE = 10;

export type DemoSuppressionKind = 'dnc' | 'litigator';

/** The list a demo number (E.164) is on, if any. */
export function demoSuppressionOf(e164: string): DemoSuppressionKind | null {
  const bucket = hashString(e164) % 1000;
  if (bucket < DEMO_DNC_PER_MILLE) return 'dnc';
  if (bucket >= 1000 - DEMO_LITIGATOR_PER_MILLE) return 'litigator';
  return null;
}

/** Every number the demo data can hold: NPA-555-0100…0199 of the places' and the owner world's area codes. */
function* demoNumbers(): Generator<string> {
  const codes = [...new Set([...DEMO_PLACES.map((p) => p.areaCode), ...MORE_AREA_CODES])].sort();
  for (const npa of codes) for (let line = 0; line < 100; line++) yield `+1${npa}55501${String(line).padStart(2, '0')}`;
}

/** The demo's Do-Not-Call and litigator lists, E.164, sorted: what `importSuppression` loads. */
export function demoSuppressionLists(): Record<DemoSuppressionKind, string[]> {
  const lists: Record<DemoSuppressionKind, string[]> = { dnc: [], litigator: [] };
  for (const number of demoNumbers()) {
    const kind = demoSuppressionOf(number);
    if (kind) lists[kind].push(number);
  }
  return lists;
}
