import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { guardedLookup, vetHost, type AddressPolicy, type Resolver } from './ssrf-guard.ts';

/** What one delivery attempt sends. */
export interface OutgoingWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Aborts the attempt (dispatcher killed); the attempt is not recorded. */
  signal?: AbortSignal;
}

export interface WebhookResponse {
  statusCode: number;
  retryAfter: string | undefined;
  /** First RESPONSE_BODY_MAX bytes, decoded as UTF-8. */
  body: string;
}

/** Sends one webhook; rejects on network errors, SSRF refusals and timeouts. */
export type Sender = (webhook: OutgoingWebhook) => Promise<WebhookResponse>;

export interface Transport {
  send: Sender;
  close(): Promise<void>;
}

export const RESPONSE_BODY_MAX = 2048;

export class DeliveryTimeoutError extends Error {
  override name = 'DeliveryTimeoutError';
}

export interface HttpSenderOptions {
  timeoutMs: number;
  /** Which addresses may be dialled (see AddressPolicy). */
  allowPrivate: AddressPolicy;
  resolver?: Resolver;
}

/**
 * undici with a connect-time SSRF guard: every connection resolves its host through
 * guardedLookup and dials only vetted addresses. IP-literal hosts never reach a lookup
 * function, so they are vetted here before the request. Redirects are not followed
 * (undici's request() has no redirect handling unless an interceptor is added).
 */
export function createHttpTransport(options: HttpSenderOptions): Transport {
  const { timeoutMs, allowPrivate, resolver } = options;
  const agent = new Agent({
    connect: { lookup: guardedLookup(allowPrivate, resolver), timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 10_000,
  });

  const send: Sender = async ({ url, headers, body, signal }) => {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) await vetHost(host, allowPrivate, resolver);
    const deadline = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([deadline, signal]) : deadline;
    try {
      const res = await request(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'skiptrace-webhooks/1.0', ...headers },
        body,
        dispatcher: agent,
        signal: combined,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        chunks.push(buf);
        size += buf.length;
        if (size >= RESPONSE_BODY_MAX) break;
      }
      if (size >= RESPONSE_BODY_MAX) res.body.destroy();
      const retryAfter = res.headers['retry-after'];
      return {
        statusCode: res.statusCode,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        body: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_MAX).toString('utf8'),
      };
    } catch (err) {
      if (deadline.aborted && !signal?.aborted) throw new DeliveryTimeoutError(`no response within ${timeoutMs} ms`);
      const code = (err as { code?: string }).code;
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
        throw new DeliveryTimeoutError(`no response within ${timeoutMs} ms`);
      throw err;
    }
  };

  return { send, close: () => agent.close() };
}
