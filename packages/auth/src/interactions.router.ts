/**
 * Login and consent pages (oidc-provider interactions). Body parsing is scoped to these
 * POST routes so the provider's own parser sees untouched streams. CSRF: a random token in
 * an HttpOnly SameSite=Strict cookie must match the form's hidden field (double submit);
 * on top, the provider ties every interaction uid to its own interaction cookie.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import { cleanBody, DependencyUnavailableError } from '@skiptrace/runtime';
import type { Accounts } from '@skiptrace/accounts';
import type { AuditLog } from '@skiptrace/audit';
import type { AbuseControls } from './abuse.ts';
import { consentPage, errorPage, loginPage, unavailablePage } from './views.ts';

const CSRF_COOKIE = 'skiptrace_csrf';

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

export function send(res: Response, status: number, html: string): void {
  res
    .status(status)
    .set({
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    })
    .type('html')
    .send(html);
}

export interface InteractionDeps {
  provider: Provider;
  accounts: Accounts;
  abuse: AbuseControls;
  audit: AuditLog;
  secureCookies: boolean;
}

/** The sign-in forms' body parser: urlencoded, 8 KiB. */
export const signInForm = (): RequestHandler => cleanBody(express.urlencoded({ extended: false, limit: '8kb' }));

/** The double-submit CSRF token of the sign-in pages: its cookie and the check of a form's field. */
export function csrfTokens(secureCookies: boolean) {
  const csrfFor = (req: Request, res: Response): string => {
    const existing = readCookie(req, CSRF_COOKIE);
    if (existing && /^[\w-]{32,64}$/.test(existing)) return existing;
    const token = randomBytes(24).toString('base64url');
    res.cookie(CSRF_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure: secureCookies, path: '/interaction' });
    return token;
  };
  const csrfValid = (req: Request): boolean => {
    const cookie = Buffer.from(readCookie(req, CSRF_COOKIE) ?? '');
    const field = Buffer.from(typeof req.body?.csrf === 'string' ? req.body.csrf : '');
    return cookie.length > 0 && cookie.length === field.length && timingSafeEqual(cookie, field);
  };
  return { csrfFor, csrfValid };
}

export function createInteractionsRouter({ provider, accounts, abuse, audit, secureCookies }: InteractionDeps): Router {
  const router = Router();
  const form = signInForm();
  const { csrfFor, csrfValid } = csrfTokens(secureCookies);
  const clientName = async (clientId: unknown) =>
    (typeof clientId === 'string' && (await provider.Client.find(clientId))?.clientName) || String(clientId);

  router.get('/interaction/:uid', async (req, res) => {
    const details = await provider.interactionDetails(req, res);
    const csrf = csrfFor(req, res);
    const name = await clientName(details.params.client_id);
    if (details.prompt.name === 'login') return send(res, 200, loginPage({ uid: details.uid, csrf, clientName: name }));
    const d = details.prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const scopes = [
      ...new Set([...(d.missingOIDCScope ?? []), ...Object.values(d.missingResourceScopes ?? {}).flat()]),
    ];
    return send(res, 200, consentPage({ uid: details.uid, csrf, clientName: name, scopes }));
  });

  router.post('/interaction/:uid/login', form, async (req, res) => {
    const details = await provider.interactionDetails(req, res);
    const name = await clientName(details.params.client_id);
    const email = typeof req.body?.email === 'string' ? req.body.email.slice(0, 320) : '';
    const password = typeof req.body?.password === 'string' ? req.body.password.slice(0, 1024) : '';
    const again = (status: number, error: string, headers: Record<string, string> = {}) => {
      res.set(headers);
      send(res, status, loginPage({ uid: details.uid, csrf: csrfFor(req, res), clientName: name, email, error }));
    };
    if (details.prompt.name !== 'login') return again(400, 'This sign-in step is already complete.');
    if (!csrfValid(req)) return again(403, 'The form expired. Please sign in again.');
    const wait = await abuse.loginByIp(req.ip ?? 'unknown');
    if (wait)
      return again(429, `Too many sign-in attempts. Try again in ${wait} seconds.`, { 'Retry-After': String(wait) });
    const locked = await abuse.lockedFor(email);
    if (locked)
      return again(429, `Too many failed sign-ins. Try again in ${locked} seconds.`, { 'Retry-After': String(locked) });
    const user = await accounts.verifyUser(email, password);
    if (!user) {
      const lockout = await abuse.loginFailed(email);
      if (lockout)
        return again(429, `Too many failed sign-ins. Try again in ${lockout} seconds.`, {
          'Retry-After': String(lockout),
        });
      return again(401, 'Invalid email or password.');
    }
    await abuse.loginSucceeded(email);
    await audit.record({
      accountId: user.accountId,
      action: 'user.signed_in',
      actor: { type: 'user', id: user.id, email: user.email },
      clientId: String(details.params.client_id),
      ...(req.ip ? { sourceAddress: req.ip } : {}),
    });
    await provider.interactionFinished(req, res, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
  });

  router.post('/interaction/:uid/consent', form, async (req, res) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name !== 'consent' || !details.session?.accountId)
      return send(res, 400, errorPage({ title: 'Nothing to confirm', message: 'This step is already complete.' }));
    if (!csrfValid(req)) return send(res, 403, errorPage({ title: 'Form expired', message: 'Please start again.' }));
    if (req.body?.decision !== 'allow') {
      const result = { error: 'access_denied', error_description: 'the user denied the request' };
      return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    }
    const d = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session.accountId, clientId: String(details.params.client_id) });
    if (!grant) throw new errors.SessionNotFound('grant not found');
    if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
    if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(d.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    const consent = details.grantId ? {} : { grantId };
    await provider.interactionFinished(req, res, { consent }, { mergeWithLastSubmission: true });
  });

  router.use('/interaction', ((err, _req, res, next) => {
    if (err instanceof DependencyUnavailableError) {
      res.set('Retry-After', String(err.retryAfterSeconds));
      return send(res, 503, unavailablePage(err));
    }
    if (!(err instanceof errors.OIDCProviderError)) return next(err);
    const expired = err instanceof errors.SessionNotFound;
    send(
      res,
      400,
      errorPage({
        title: expired ? 'Sign-in session expired' : 'Sign-in failed',
        message: expired ? 'This sign-in page has expired or was opened in another browser.' : err.message,
      }),
    );
  }) as express.ErrorRequestHandler);
  return router;
}
