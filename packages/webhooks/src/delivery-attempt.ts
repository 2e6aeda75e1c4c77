import {
  extractTraceContext,
  recordWebhookDelivery,
  SpanKind,
  withSpan,
  type Logger,
  type Span,
  type WebhookOutcome,
} from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import { WEBHOOK_HEADERS } from '@skiptrace/contracts';
import type { WebhookConfig } from './config.ts';
import { markFailure, markGone, markSuccess } from './endpoint.repository.ts';
import { DeliveryTimeoutError, type Sender } from './http-sender.ts';
import type { AttemptWriter } from './attempt-writer.ts';
import { failWithoutAttempt, type AttemptOutcome, type LeasedMessage } from './message.repository.ts';
import { nextRetryDelay, parseRetryAfter } from './retry-policy.ts';
import { activeSecrets, signatureHeader } from './signing.ts';

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

export interface AttemptDeps {
  db: Database;
  config: WebhookConfig;
  send: Sender;
  clock: Clock;
  logger: Logger;
  /** Batched outcome writes (createAttemptWriter). */
  record: AttemptWriter;
  random?: () => number;
}

/** What the caller must do with the schedule after an attempt. */
export type AttemptResult = { kind: 'retry'; dueAtMs: number } | { kind: 'done' } | { kind: 'aborted' };

export function deliveryHeaders(m: LeasedMessage, nowMs: number): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  const secrets = activeSecrets(
    { secret: m.secret, previousSecret: m.previous_secret, previousSecretExpiresAt: m.previous_secret_expires_at },
    nowMs,
  );
  return {
    [WEBHOOK_HEADERS.id]: m.id,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: signatureHeader(secrets, m.id, timestamp, m.payload),
    [WEBHOOK_HEADERS.eventType]: m.event_type,
  };
}

/**
 * Makes one attempt for a leased message and records it: 2xx delivers; 410 disables the
 * endpoint; anything else (3xx included: redirects are not followed) schedules the next
 * retry or fails the message. A manual (replay) attempt is never retried automatically.
 * `requestDone` is called once the request to the endpoint is over (answered, failed or
 * never made), before the outcome is written: the endpoint's slot is free from then on.
 */
export function attemptDelivery(
  deps: AttemptDeps,
  m: LeasedMessage,
  signal: AbortSignal,
  requestDone: () => void = () => undefined,
): Promise<AttemptResult> {
  // A span in the trace of the request that caused the event (its context was stored with
  // the message), whichever dispatcher makes the attempt and however much later.
  return withSpan(
    `deliver webhook ${m.event_type}`,
    {
      kind: SpanKind.CLIENT,
      parent: m.traceparent ? extractTraceContext({ traceparent: m.traceparent }) : undefined,
      attributes: {
        'skiptrace.webhook.message_id': m.id,
        'skiptrace.webhook.endpoint_id': m.endpoint_id,
        'skiptrace.webhook.attempt': m.attempt_count + 1,
      },
    },
    (span) => attempt(deps, m, signal, span, requestDone),
  );
}

async function attempt(
  deps: AttemptDeps,
  m: LeasedMessage,
  signal: AbortSignal,
  span: Span,
  requestDone: () => void,
): Promise<AttemptResult> {
  const { db, config, send, clock, logger } = deps;
  if (!m.enabled) {
    requestDone();
    await failWithoutAttempt(db, m.id);
    return { kind: 'done' };
  }
  const startedAt = clock.now();
  const started = performance.now();
  let statusCode: number | null = null;
  let responseBody: string | null = null;
  let error: string | null = null;
  let retryAfter: string | undefined;
  let timedOut = false;
  try {
    const res = await send({ url: m.url, headers: deliveryHeaders(m, startedAt), body: m.payload, signal });
    ({ statusCode, retryAfter } = res);
    responseBody = res.body;
  } catch (err) {
    if (signal.aborted) return { kind: 'aborted' };
    timedOut = err instanceof DeliveryTimeoutError;
    error = (err as Error).message || String(err);
  } finally {
    requestDone();
  }
  const durationMs = Math.round(performance.now() - started);
  const now = clock.now();
  const outcome: AttemptOutcome = {
    messageId: m.id,
    attemptedAt: new Date(startedAt),
    statusCode,
    durationMs,
    responseBody,
    error,
    trigger: m.manual ? 'manual' : 'scheduled',
    status: 'failed',
    nextAttemptAt: null,
  };
  const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
  let counted: WebhookOutcome = 'failed';
  if (ok) {
    outcome.status = 'delivered';
    counted = 'success';
    if (m.failing_since) await markSuccess(db, m.endpoint_id);
  } else if (statusCode === 410) {
    outcome.error ??= 'endpoint answered 410 Gone; endpoint disabled';
    counted = 'disabled';
    await markGone(db, m.endpoint_id);
  } else {
    if (statusCode !== null && statusCode >= 300 && statusCode < 400) outcome.error ??= 'redirects are not followed';
    // An endpoint that was already failing when this message was leased, and is not yet due
    // to be disabled, would come out of markFailure unchanged: skip the write. (Each retry
    // to a dead endpoint used to update its row: a wave of timeouts queued on that row's
    // lock, holding pool connections the healthy endpoints' deliveries were waiting for.)
    const stillFailing = m.failing_since !== null && m.failing_since.getTime() > now - config.disableAfterMs;
    const endpoint = stillFailing
      ? undefined
      : await markFailure(db, m.endpoint_id, new Date(now), new Date(now - config.disableAfterMs));
    const delay = m.manual
      ? null
      : nextRetryDelay(
          {
            attempt: m.attempt_count + 1,
            retryAfterMs: parseRetryAfter(retryAfter, now),
            overloaded: timedOut || statusCode === 429,
          },
          config.retryDelaysMs,
          deps.random,
        );
    if (endpoint?.enabled === false && endpoint.disabled_reason === 'failing') {
      logger.warn({ endpointId: m.endpoint_id }, 'endpoint disabled after failing continuously');
      counted = 'disabled';
    } else if (delay !== null) {
      counted = 'retry';
      outcome.status = 'pending';
      outcome.nextAttemptAt = new Date(now + delay);
    }
  }
  await deps.record(outcome);
  recordWebhookDelivery(counted, durationMs / 1000);
  if (statusCode !== null) span.setAttribute('http.response.status_code', statusCode);
  span.setAttribute('skiptrace.webhook.outcome', counted);
  logger.debug({ messageId: m.id, statusCode, status: outcome.status, durationMs }, 'webhook attempt');
  return outcome.nextAttemptAt ? { kind: 'retry', dueAtMs: outcome.nextAttemptAt.getTime() } : { kind: 'done' };
}
