import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Receiver kit: verifies a Standard Webhooks delivery from the skip-trace dispatcher.
 * Pass the raw request body exactly as received (re-serialised JSON will not verify).
 */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Accepted clock difference in seconds, both ways (default 300). */
  toleranceSec?: number;
  /** Current time in epoch ms (tests). */
  now?: number;
}

const PREFIX = 'whsec_';

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value[0] : value;
}

function expectedSignature(secret: string, id: string, timestamp: string, body: string): Buffer {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
}

/**
 * Checks webhook-id / webhook-timestamp / webhook-signature against one secret or
 * several (during a rotation, pass both). Any `v1,<base64>` entry of the
 * space-separated signature list may match; comparison is constant-time. Returns the
 * parsed JSON body (undefined for an empty body); throws WebhookVerificationError.
 */
export function verifyWebhook(
  secret: string | string[],
  rawBody: string,
  headers: HeaderBag,
  options: VerifyOptions = {},
): unknown {
  const { toleranceSec = 300, now = Date.now() } = options;
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook headers');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('invalid webhook-timestamp');
  const skewSec = Math.floor(now / 1000) - Number(timestamp);
  if (skewSec > toleranceSec) throw new WebhookVerificationError('message timestamp too old');
  if (skewSec < -toleranceSec) throw new WebhookVerificationError('message timestamp too new');

  const candidates = signatures
    .split(' ')
    .map((entry) => entry.split(','))
    .filter((parts): parts is [string, string] => parts.length === 2 && parts[0] === 'v1')
    .map(([, value]) => Buffer.from(value, 'base64'));
  const secrets = Array.isArray(secret) ? secret : [secret];
  if (secrets.length === 0) throw new WebhookVerificationError('no secret given');
  const matched = secrets.some((s) => {
    const expected = expectedSignature(s, id, timestamp, rawBody);
    return candidates.some((c) => c.length === expected.length && timingSafeEqual(c, expected));
  });
  if (!matched) throw new WebhookVerificationError('no matching signature');
  return rawBody === '' ? undefined : JSON.parse(rawBody);
}
