/**
 * DELETE /plants/{id} for any property, batch row or not. Erasing a batch row that is still
 * waiting for its trace settles it in its batch's counters (deleteProperty: processed and
 * erased), so a batch whose last waiting rows are erased completes here, with its
 * batch.completed event, as if its last chunk had been traced.
 */
import { deleteProperty } from '@skiptrace/core';
import type { MessageBus } from '@skiptrace/messaging';
import type { Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import { completeIfDone } from './dispatch.ts';

/** Erases the property; false when the account has no such property. */
export async function eraseProperty(
  deps: { db: Database; bus: MessageBus; logger?: Logger },
  accountId: string,
  id: string,
): Promise<boolean> {
  const erased = await deleteProperty(deps.db, accountId, id);
  if (!erased) return false;
  if (erased.settledBatchId) {
    try {
      await completeIfDone(deps.db, deps.bus, erased.settledBatchId);
    } catch (err) {
      // The erase is committed; the batch sweep completes batches whose rows are all settled.
      deps.logger?.warn(
        { err, batchId: erased.settledBatchId },
        'batch completion after an erase failed; left to the sweep',
      );
    }
  }
  return true;
}
