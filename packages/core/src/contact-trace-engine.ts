import type { Property, TraceResult } from '@skiptrace/contracts';
import {
  CANDIDATE_LIMITS,
  findCandidates,
  loadContactDetails,
  type CandidateLimits,
  type ContactCandidate,
} from '@skiptrace/contacts';
import {
  blockingKeys,
  buildMatchQuery,
  rankCandidates,
  type BlockingKeys,
  type RankedCandidate,
} from '@skiptrace/matching';
import type { Sql } from '@skiptrace/storage';
import type { TraceEngine, TraceOutcome } from './trace-engine.ts';

/** Most people returned for one property by default (see ContactTraceEngineOptions.maxPeople). */
export const DEFAULT_MAX_PEOPLE = 10;

export interface ContactTraceEngineOptions {
  /**
   * Most people returned for one property (default 10; the worker's TRACE_MAX_PEOPLE). An
   * address-only query returns every adult on file there who matches; when more match, the
   * best `maxPeople` are returned and the outcome says how many matched (`matched`).
   */
  maxPeople?: number;
  /** Candidates read per query and block (default CANDIDATE_LIMITS of @skiptrace/contacts). */
  candidateLimits?: CandidateLimits;
}

const NO_ADDRESS = 'no contact on file at this address';
const NO_NAME = 'people live at this address but none matches the owner name given';

type Ranked = RankedCandidate<{
  first_name: string;
  last_name: string;
  first_norm: string;
  last_norm: string;
  address_key: string;
  unit_key: string;
  city: string;
  c: ContactCandidate;
}>;

/** Whether any of the three blocks (find-candidates.ts) returned as many rows as its limit. */
function anyBlockFull(candidates: ContactCandidate[], key: BlockingKeys, limits: CandidateLimits): boolean {
  let address = 0;
  let zipNumber = 0;
  let cityNumber = 0;
  for (const c of candidates) {
    if (c.addressKey === key.addressKey) address++;
    else if (c.zip5 === key.zip5) zipNumber++;
    else cityNumber++;
  }
  return address >= limits.address || zipNumber >= limits.zipNumber || cityNumber >= limits.cityNumber;
}

/**
 * The production trace engine: standardises each address, finds the contacts stored at it
 * (one query for the whole batch), scores them against the owner name when one is given
 * (docs/matching.md); for the queries that found nobody there, finds the contacts near it
 * by every blocking key and scores again (one more query, only when any query needs it);
 * then reads the chosen people's phones with their DNC and litigator flags (one more query).
 */
export function createContactTraceEngine(db: Sql, options: ContactTraceEngineOptions = {}): TraceEngine {
  const maxPeople = options.maxPeople ?? DEFAULT_MAX_PEOPLE;
  if (!Number.isInteger(maxPeople) || maxPeople < 1) throw new RangeError(`maxPeople must be a positive integer`);
  const limits = options.candidateLimits ?? CANDIDATE_LIMITS;
  async function traceMany(properties: Property[]): Promise<TraceOutcome[]> {
    const queries = properties.map((p) => buildMatchQuery(p));
    const keys = queries.map((q) => blockingKeys(q.address));
    // Two steps: the exact address key for every query, then all blocking keys only for the
    // queries that found nobody above the threshold there (a misspelt street, a wrong ZIP,
    // an address not on file) — most queries stop after the first, cheaper probe.
    const found = await findCandidates(db, keys, options.candidateLimits, 'address');
    const rank = (i: number): Ranked[] =>
      rankCandidates(
        queries[i]!,
        found[i]!.map((c) => ({
          first_name: c.firstName,
          last_name: c.lastName,
          first_norm: c.firstNorm,
          last_norm: c.lastNorm,
          address_key: c.addressKey,
          unit_key: c.unitKey,
          city: c.city,
          c,
        })),
      );
    const ranked: Ranked[][] = queries.map((_, i) => rank(i));
    const again: number[] = [];
    for (let i = 0; i < queries.length; i++) if (ranked[i]!.length === 0 && keys[i]!.number !== '') again.push(i);
    if (again.length > 0) {
      const near = await findCandidates(
        db,
        again.map((i) => keys[i]!),
        options.candidateLimits,
      );
      again.forEach((i, j) => {
        found[i] = near[j]!;
        ranked[i] = rank(i);
      });
    }
    const chosen = ranked.flatMap((list) => list.slice(0, maxPeople).map((r) => r.candidate.c));
    const details = chosen.length === 0 ? new Map() : await loadContactDetails(db, chosen);
    return ranked.map((list, i): TraceOutcome => {
      const candidates = found[i] as ContactCandidate[];
      // A block came back full: the people not read were not compared (docs/matching.md §5).
      const blockFull = anyBlockFull(candidates, keys[i]!, limits);
      if (list.length === 0) {
        const error = candidates.length > 0 ? NO_NAME : NO_ADDRESS;
        return blockFull
          ? { status: 'no_match', results: [], error, matched: 0 }
          : { status: 'no_match', results: [], error };
      }
      const results: TraceResult[] = [];
      for (const { candidate, confidence, reasons } of list.slice(0, maxPeople)) {
        const { c } = candidate;
        const more = details.get(c.id);
        if (more === undefined) continue; // deleted since it was found
        results.push({
          first_name: c.firstName,
          last_name: c.lastName,
          confidence,
          reasons,
          phones: more.phones,
          emails: more.emails,
        });
      }
      if (results.length === 0) return { status: 'no_match', results: [], error: NO_ADDRESS };
      return list.length > maxPeople || blockFull
        ? { status: 'completed', results, matched: list.length }
        : { status: 'completed', results };
    });
  }
  return {
    traceMany,
    async trace(property) {
      const [outcome] = await traceMany([property]);
      return outcome!;
    },
  };
}
