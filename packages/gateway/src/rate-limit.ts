import type { RateLimiter } from '@skiptrace/kv';
import { ApiError } from '@skiptrace/runtime';
import type { RequestHandler } from 'express';

/**
 * Per-account request limit on the API (fixed window in the key-value store, so every
 * gateway replica shares it). Every answer carries the IETF RateLimit fields (draft
 * `draft-ietf-httpapi-ratelimit-headers`, the `RateLimit-*` header form): `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` (seconds until the window ends) and
 * `RateLimit-Policy` (`<limit>;w=<window seconds>`). Over the limit: 429 with Retry-After and
 * the Error body.
 * When the store is unreachable the request goes through: a rate limit must not turn a
 * Redis outage into an API outage.
 */
export function accountRateLimit(limiter: RateLimiter, limitPerWindow: number, windowMs = 60_000): RequestHandler {
  const policy = `${limitPerWindow};w=${Math.round(windowMs / 1000)}`;
  return async (req, res, next) => {
    const accountId = req.auth?.accountId;
    if (!accountId) return next();
    let decision;
    try {
      decision = await limiter.consume(`api:${accountId}`);
    } catch (err) {
      req.log.warn({ err }, 'rate limiter unavailable; request allowed');
      return next();
    }
    res.setHeader('RateLimit-Limit', String(limitPerWindow));
    res.setHeader('RateLimit-Remaining', String(decision.remaining));
    res.setHeader('RateLimit-Reset', String(Math.ceil(decision.resetMs / 1000)));
    res.setHeader('RateLimit-Policy', policy);
    if (decision.allowed) return next();
    const seconds = String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
    next(
      new ApiError('rate_limited', `too many requests for this account; retry after ${seconds} s`, {
        'Retry-After': seconds,
      }),
    );
  };
}
