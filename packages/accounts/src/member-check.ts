/**
 * The gateway's check of a signed-in user's token against the user as they are now: a
 * removed user's token stops working at once (401), and a lowered role takes effect on
 * the next request (the token's role is lowered to the current one; a raised role needs a
 * new token, which the console gets by refreshing). Lookups are cached for a few seconds
 * per process; the members API of the same process forgets a user it changes (`forget`),
 * so there a change holds from the next request, and another gateway sees it within the
 * cache's time. API clients' tokens (client_credentials: subject = client id) pass
 * untouched.
 */
import { lowerRole } from '@skiptrace/contracts';
import { ApiError } from '@skiptrace/runtime';
import type { RequestHandler } from 'express';
import type { Members } from './members.service.ts';

export interface MemberCheckOptions {
  /** How long a user's current role is trusted, ms; default 5000. */
  ttlMs?: number;
  /** Users remembered at most; default 10000. */
  max?: number;
  realm?: string;
}

type Current = Awaited<ReturnType<Members['current']>>;

export type MemberCheck = RequestHandler & {
  /** Drops a user's cached role and membership: the next request reads them again. */
  forget(userId: string): void;
};

export function createMemberCheck(members: Pick<Members, 'current'>, options: MemberCheckOptions = {}): MemberCheck {
  const ttlMs = options.ttlMs ?? 5_000;
  const max = options.max ?? 10_000;
  const realm = options.realm ?? 'skiptrace';
  const cache = new Map<string, { at: number; value: Current }>();

  async function lookup(userId: string): Promise<Current> {
    const now = Date.now();
    const hit = cache.get(userId);
    if (hit && now - hit.at < ttlMs) return hit.value;
    const value = await members.current(userId);
    cache.delete(userId);
    cache.set(userId, { at: now, value });
    if (cache.size > max) cache.delete(cache.keys().next().value!);
    return value;
  }

  const check: RequestHandler = (req, _res, next) => {
    const auth = req.auth;
    if (!auth || auth.subject === auth.clientId) return next();
    lookup(auth.subject).then((user) => {
      if (!user || user.accountId !== auth.accountId) {
        const description = 'the user is no longer a member of the account';
        return next(
          new ApiError('unauthorized', `invalid access token: ${description}`, {
            'WWW-Authenticate': `Bearer realm="${realm}", error="invalid_token", error_description="${description}"`,
          }),
        );
      }
      auth.role = auth.role ? lowerRole(auth.role, user.role) : user.role;
      auth.email = user.email;
      next();
    }, next);
  };
  return Object.assign(check, { forget: (userId: string) => void cache.delete(userId) });
}
