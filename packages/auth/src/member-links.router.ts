/**
 * The pages of a member's one-time link (docs/oauth.md, members): an invitation
 * (`/interaction/invitation/<token>`: the invitee sets a password and becomes a member with
 * the invited role) and a password reset (`/interaction/reset/<token>`). The token is the
 * link's only secret; a link works once, until it expires. Same CSRF token, login rate
 * limit and page style as the sign-in pages; the use is recorded in the audit log.
 */
import { Router, type Request, type Response } from 'express';
import { AccountError, LINK_PATHS, type LinkKind, type Members } from '@skiptrace/accounts';
import type { AuditLog } from '@skiptrace/audit';
import type { AbuseControls } from './abuse.ts';
import { csrfTokens, send, signInForm } from './interactions.router.ts';
import { errorPage, memberLinkDonePage, memberLinkPage } from './views.ts';

export interface MemberLinksDeps {
  members: Members;
  audit: AuditLog;
  abuse: AbuseControls;
  secureCookies: boolean;
  /** The console's public URL: where the member signs in afterwards. */
  consoleUrl: string;
}

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;
const gone = () =>
  errorPage({
    title: 'Link not valid',
    message: 'This link was used already, has expired or was withdrawn. Ask an admin of your team for a new one.',
  });

export function createMemberLinksRouter(deps: MemberLinksDeps): Router {
  const { members, audit, abuse } = deps;
  const router = Router();
  const form = signInForm();
  const { csrfFor, csrfValid } = csrfTokens(deps.secureCookies);

  for (const kind of ['invitation', 'password_reset'] as const satisfies LinkKind[]) {
    const path = `${LINK_PATHS[kind]}/:token`;
    const linkOf = async (req: Request) => {
      const token = String(req.params.token);
      return TOKEN.test(token) ? { token, link: await members.findLink(kind, token) } : { token, link: undefined };
    };
    const page = (req: Request, res: Response, status: number, email: string, role: string | null, error?: string) =>
      send(
        res,
        status,
        memberLinkPage({
          kind,
          action: req.originalUrl,
          csrf: csrfFor(req, res),
          email,
          role,
          ...(error ? { error } : {}),
        }),
      );

    router.get(path, async (req, res) => {
      const { link } = await linkOf(req);
      if (!link) return send(res, 404, gone());
      page(req, res, 200, link.email, link.role);
    });

    router.post(path, form, async (req, res) => {
      const { token, link } = await linkOf(req);
      if (!link) return send(res, 404, gone());
      if (!csrfValid(req)) return page(req, res, 403, link.email, link.role, 'The form expired. Please try again.');
      const wait = await abuse.loginByIp(req.ip ?? 'unknown');
      if (wait) {
        res.set('Retry-After', String(wait));
        return page(req, res, 429, link.email, link.role, `Too many attempts. Try again in ${wait} seconds.`);
      }
      const password = typeof req.body?.password === 'string' ? req.body.password.slice(0, 1024) : '';
      const confirm = typeof req.body?.confirm === 'string' ? req.body.confirm.slice(0, 1024) : '';
      if (password.length < 8)
        return page(req, res, 400, link.email, link.role, 'The password must have at least 8 characters.');
      if (password !== confirm) return page(req, res, 400, link.email, link.role, 'The two passwords differ.');
      let user;
      try {
        user = await members.redeem(kind, token, password);
      } catch (err) {
        if (!(err instanceof AccountError)) throw err;
        return page(req, res, 409, link.email, link.role, err.message);
      }
      if (!user) return send(res, 404, gone());
      await audit.record({
        accountId: user.accountId,
        action: kind === 'invitation' ? 'member.invitation_accepted' : 'member.password_reset',
        actor: { type: 'user', id: user.id, email: user.email },
        ...(req.ip ? { sourceAddress: req.ip } : {}),
        target: { type: 'member', id: user.id },
        details: kind === 'invitation' ? { role: user.role, invitation: link.id } : {},
      });
      send(res, 200, memberLinkDonePage({ kind, email: user.email, consoleUrl: deps.consoleUrl }));
    });
  }
  return router;
}
