import type { Sql } from '@skiptrace/storage';
import { usageUpsertSql, UTC_DAY_SQL } from '@skiptrace/usage';
import type { AttemptOutcome } from './message.repository.ts';

/**
 * Records attempt outcomes in batches: while one write is in flight, outcomes that
 * finish meanwhile queue up and go out together in the next statement. Under load
 * that turns one commit per delivery into one per batch; when idle, an outcome is
 * written at once (no timer, no added latency).
 */
export type AttemptWriter = (outcome: AttemptOutcome) => Promise<void>;

const MAX_BATCH = 500;

export function createAttemptWriter(sql: Sql): AttemptWriter {
  let queue: { outcome: AttemptOutcome; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let writing = false;

  async function flush() {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      try {
        await writeBatch(
          sql,
          batch.map((b) => b.outcome),
        );
        batch.forEach((b) => b.resolve());
      } catch (err) {
        batch.forEach((b) => b.reject(err));
      }
    }
    writing = false;
  }

  return (outcome) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ outcome, resolve, reject });
      if (!writing) void flush();
    });
}

/**
 * Each accepted attempt (2xx) is one webhook delivery of the message's account: counted by
 * the statement that records the attempt, once per attempt row.
 */
const COUNT_DELIVERIES = usageUpsertSql(
  `SELECT m.account_id, '', ${UTC_DAY_SQL}, 0, 0, 0, 0, 0, count(*)
     FROM input i JOIN webhook_messages m ON m.id = i.message_id
    WHERE i.status = 'delivered' GROUP BY 1`,
);

/** Appends the attempts and moves their messages on, releasing the leases, in one statement. */
async function writeBatch(sql: Sql, outcomes: AttemptOutcome[]): Promise<void> {
  const col = <T>(pick: (o: AttemptOutcome) => T) => outcomes.map(pick);
  await sql.query(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[],
                            $8::text[], $9::timestamptz[])
         AS t(message_id, attempted_at, status_code, duration_ms, response_body, error, trigger, status, next_attempt_at)
     ), attempt AS (
       INSERT INTO webhook_attempts (message_id, attempted_at, status_code, duration_ms, response_body, error, trigger)
       SELECT message_id, attempted_at, status_code, duration_ms, response_body, error, trigger FROM input
     ), counted AS (
       ${COUNT_DELIVERIES}
     )
     UPDATE webhook_messages m SET status = i.status, next_attempt_at = i.next_attempt_at, lease_until = NULL,
       manual = false, attempt_count = m.attempt_count + 1, updated_at = now()
     FROM input i WHERE m.id = i.message_id`,
    [
      col((o) => o.messageId),
      col((o) => o.attemptedAt),
      col((o) => o.statusCode),
      col((o) => o.durationMs),
      col((o) => o.responseBody),
      col((o) => o.error),
      col((o) => o.trigger),
      col((o) => o.status),
      col((o) => o.nextAttemptAt),
    ],
  );
}
