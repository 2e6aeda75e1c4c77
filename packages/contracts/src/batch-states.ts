/**
 * The states of a batch as the API shows them, and which of them are open: rows are still
 * traced and the batch can be cancelled. Pure (no imports): the web console bundles this file.
 */
export const BATCH_STATES = ['queued', 'running', 'completed', 'cancelled', 'failed'] as const;
export type BatchState = (typeof BATCH_STATES)[number];

export const OPEN_BATCH_STATES = ['queued', 'running'] as const satisfies readonly BatchState[];

/** The batch is still traced (queued or running). */
export const isOpenBatch = (state: string | undefined): boolean =>
  (OPEN_BATCH_STATES as readonly string[]).includes(state ?? '');
