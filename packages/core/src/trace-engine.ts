import type { Address, OwnerOfRecord, Property, TraceResult } from '@skiptrace/contracts';

export interface TraceOutcome {
  status: 'completed' | 'no_match';
  results: TraceResult[];
  /** Why nothing matched (no_match), in words a caller can act on. */
  error?: string;
  /**
   * Present only when `results` may not be everyone who matched (the response's
   * `truncated`): more people matched than the engine's cap (`maxPeople`), or the address
   * or its near addresses held more contacts than a candidate block reads (CANDIDATE_LIMITS), so some
   * were never compared. It is how many matched among those compared (a lower bound when
   * the block was full).
   */
  matched?: number;
  /** The property record's owners (present whenever a record is loaded, even when nobody is found). */
  owners_of_record?: OwnerOfRecord[];
  /** The owner's mailing address the trace used: the caller's, else the record's. */
  mailing_address?: Address;
}

/**
 * Finds the owners of properties and their phones. Throws only on infrastructure
 * faults (database down); "nobody found" is an outcome, not an error.
 */
export interface TraceEngine {
  trace(property: Property): Promise<TraceOutcome>;
  /** Set-based variant for batches: one lookup for many properties, outcomes in input order. */
  traceMany(properties: Property[]): Promise<TraceOutcome[]>;
}
