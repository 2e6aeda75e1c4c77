import type { SkipTraceJob } from '@skiptrace/contracts';
import type { MessageBus } from '@skiptrace/messaging';
import type { Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type { z } from 'zod';
import { propertyOf, type PropertyRow } from './property.repository.ts';

export interface RecoverySweepConfig {
  /** How often the sweep runs, ms. */
  intervalMs: number;
  /** A synchronous row still pending this long (ms) is handed to the broker again. */
  staleAfterMs: number;
  /** Rows per sweep. */
  batchSize: number;
}

/**
 * The outbox's recovery half: a property stored but whose job never reached the broker
 * (process crash, broker down) is published again. Workers are idempotent, so a row
 * whose job was merely slow costs one harmless duplicate. `FOR UPDATE SKIP LOCKED`
 * lets several replicas sweep at once without taking the same rows.
 */
export function createRecoverySweep(db: Database, bus: MessageBus, logger: Logger, config: RecoverySweepConfig) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  async function sweepOnce(): Promise<number> {
    if (!bus.isReady()) return 0;
    const { rows } = await db.query<PropertyRow>(
      `UPDATE properties SET republished_at = now() WHERE id IN (
         SELECT id FROM properties
         WHERE status = 'pending' AND batch_id IS NULL
           AND created_at < now() - make_interval(secs => $1::double precision / 1000)
           AND (republished_at IS NULL OR republished_at < now() - make_interval(secs => $1::double precision / 1000))
         ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, account_id, street_address, city, state, zip_code, first_name, last_name, mailing_address, apn, created_at`,
      [config.staleAfterMs, config.batchSize],
    );
    // Published together, so they leave packed (job.skiptrace packs: see MESSAGES).
    await Promise.all(
      rows.map((row) => {
        const job: z.infer<typeof SkipTraceJob> = {
          propertyId: Number(row.id),
          accountId: row.account_id,
          property: propertyOf(row),
          requestedAt: new Date(row.created_at).toISOString(),
        };
        return bus.publish('job.skiptrace', job, { messageId: `trace-${row.id}` });
      }),
    );
    if (rows.length) logger.warn({ count: rows.length }, 'recovery sweep republished pending jobs');
    return rows.length;
  }

  const tick = () => {
    running = sweepOnce().catch((err: unknown) => {
      logger.warn({ err }, 'recovery sweep failed; will retry');
      return 0;
    });
    void running.finally(() => {
      if (timer) timer = setTimeout(tick, config.intervalMs);
    });
  };

  return {
    sweepOnce,
    start() {
      timer = setTimeout(tick, config.intervalMs);
    },
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
