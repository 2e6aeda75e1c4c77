/**
 * The lease of an upload (#22 item 9). A batch is `receiving` while one process streams its
 * body into the store; that process owns the upload (`batches.upload_owner`) and renews
 * `upload_heartbeat_at` every `uploadHeartbeatMs` from a timer, however slowly the body
 * arrives. The batch sweep (dispatch.ts) judges an upload by its owner's heartbeat, never by
 * its age: a heartbeat older than `BATCH_UPLOAD_LEASE_MS` means the process died with the
 * upload (kill -9, OOM, a lost node), and the sweep ends the batch as `failed` with the
 * reason, keeping every row already traced. A renewal that finds the batch no longer ours
 * (the sweep ended it while this process was stalled) marks the lease lost; ingest then stops.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from '@skiptrace/storage';

/** This process, as the owner of the uploads it receives. */
export const UPLOAD_OWNER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

export interface UploadLease {
  /** True once a renewal found the batch ended by someone else. */
  readonly lost: boolean;
  /** Renews now (after a stored page); false when the lease is lost. */
  renew(): Promise<boolean>;
  stop(): void;
}

export function holdUploadLease(
  db: Database,
  batchId: string,
  heartbeatMs: number,
  onError: (err: unknown) => void,
): UploadLease {
  let lost = false;
  const renew = async () => {
    const { rowCount } = await db.query(
      `UPDATE batches SET upload_heartbeat_at = now()
       WHERE id = $1::bigint AND status = 'receiving' AND upload_owner = $2`,
      [batchId, UPLOAD_OWNER],
    );
    if (rowCount === 0) lost = true;
    return !lost;
  };
  // A failed renewal (database briefly away) is retried on the next beat: the lease is
  // several beats long.
  const timer = setInterval(() => void renew().catch(onError), heartbeatMs).unref();
  return {
    get lost() {
      return lost;
    },
    renew,
    stop: () => clearInterval(timer),
  };
}
