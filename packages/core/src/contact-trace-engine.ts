import type { Property, TraceResult } from '@skiptrace/contracts';
import { findCandidates, type ContactCandidate } from '@skiptrace/contacts';
import { buildMatchQuery, rankCandidates, type MatchQuery } from '@skiptrace/matching';
import type { Sql } from '@skiptrace/storage';
import type { TraceEngine, TraceOutcome } from './trace-engine.ts';

/** Most people returned for one property (a household rarely has more adults). */
const MAX_PEOPLE = 10;

const NO_ADDRESS = 'no contact on file at this address';
const NO_NAME = 'people live at this address but none matches the owner name given';

function outcomeOf(query: MatchQuery, candidates: ContactCandidate[]): TraceOutcome {
  if (candidates.length === 0) return { status: 'no_match', results: [], error: NO_ADDRESS };
  const ranked = rankCandidates(
    query,
    candidates.map((c) => ({
      first_name: c.firstName,
      last_name: c.lastName,
      address_key: c.addressKey,
      unit_key: c.unitKey,
      c,
    })),
  );
  if (ranked.length === 0) return { status: 'no_match', results: [], error: NO_NAME };
  const results: TraceResult[] = ranked.slice(0, MAX_PEOPLE).map(({ candidate: { c }, confidence, reasons }) => ({
    first_name: c.firstName,
    last_name: c.lastName,
    confidence,
    reasons,
    phones: c.phones,
    emails: c.emails,
  }));
  return { status: 'completed', results };
}

/**
 * The production trace engine: standardises the address to its matching key, loads the
 * contacts stored at that key (with DNC and litigator flags), and ranks them against the
 * owner name when one is given. One query serves a whole batch chunk.
 */
export function createContactTraceEngine(db: Sql): TraceEngine {
  async function traceMany(properties: Property[]): Promise<TraceOutcome[]> {
    const queries = properties.map((p) => buildMatchQuery(p));
    const byKey = await findCandidates(
      db,
      queries.map((q) => q.address.key),
    );
    return queries.map((q) => outcomeOf(q, byKey.get(q.address.key) ?? []));
  }
  return {
    traceMany,
    async trace(property) {
      const [outcome] = await traceMany([property]);
      return outcome!;
    },
  };
}
