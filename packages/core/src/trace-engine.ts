import type { Property, TraceResult } from '@skiptrace/contracts';

export interface TraceOutcome {
  status: 'completed' | 'no_match';
  results: TraceResult[];
  /** Why nothing matched (no_match), in words a caller can act on. */
  error?: string;
  /** How many people matched when more did than `results` holds (the engine's cap). */
  matched?: number;
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
