/**
 * The batch rows among the properties (port). A row of an uploaded batch is a `properties`
 * row with a batch id and a row number; the package that traces batches stores its outcome,
 * and erasing it is counted in its batch. Core reads and erases such rows through this port
 * and never names a batch table: @skiptrace/batches implements it (createBatchRows) and the
 * services that compose both pass it in.
 */
import type { Address, OwnerOfRecord, PropertyResponse, TraceResult } from '@skiptrace/contracts';
import type { Sql } from '@skiptrace/storage';

/** The per-property part of an outcome (TraceOutcome's owners_of_record and mailing_address). */
export interface OwnerFacts {
  owners_of_record?: OwnerOfRecord[];
  mailing_address?: Address;
}

/** A batch row: its batch and its row number there. */
export interface BatchRowRef {
  batchId: string;
  rowNumber: number;
}

/** What the batch stored for a traced row. */
export interface BatchRowOutcome {
  status: Exclude<PropertyResponse['status'], 'pending'>;
  error: string | null;
  results: TraceResult[];
  people_total: number | null;
  owner_facts: OwnerFacts | null;
  completed_at: Date;
}

/** What erasing a batch row did. */
export interface ErasedBatchRow {
  /** The properties row was there and is gone. */
  removed: boolean;
  /** The row was still waiting for its trace in an open batch, which now counts it (processed, erased). */
  settled: boolean;
}

export interface BatchRows {
  /** The outcomes stored for these rows, in their order; undefined for a row not traced yet. */
  outcomes(sql: Sql, rows: readonly BatchRowRef[]): Promise<(BatchRowOutcome | undefined)[]>;
  /**
   * A subquery for LATERAL: the stored outcome of the batch row aliased `p` (a properties row
   * with batch_id and row_number) as one row (status text, results jsonb), none when it is
   * not traced yet. History filters by status and phone through it.
   */
  outcomeSql(p: string): string;
  /**
   * Erases a batch row in the transaction `tx`: takes its batch's lock, then calls `remove`
   * (deletes the properties row: undefined when it was not there, else whether it was still
   * pending), drops the row's outcome and, when the row was still waiting in an open batch,
   * counts it in that batch so that `processed + rejected` still reaches `total`.
   */
  erase(tx: Sql, row: BatchRowRef, remove: () => Promise<{ pending: boolean } | undefined>): Promise<ErasedBatchRow>;
  /**
   * After an erase that settled a row has committed: completes the batch if that was the last
   * row it waited for. Never throws (a failure is left to the batch sweep).
   */
  settled(batchId: string): Promise<void>;
}
