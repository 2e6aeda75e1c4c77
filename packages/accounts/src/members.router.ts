/**
 * The account's members under /api/v1/members (mounted by the gateway after bearer
 * authentication and the member check): list, invite (a one-time link), change a role,
 * remove, reset a password (a one-time link). Links are shown once, to the admin who asked;
 * no mail is sent. Each change is recorded in the audit log.
 */
import { auditContext, type AuditLog } from '@skiptrace/audit';
import { membersApi, roleOfScopes, type ApiScope, type MemberLink } from '@skiptrace/contracts';
import { accountOf, ApiError, mountRoute, type Logger } from '@skiptrace/runtime';
import { Router, type Request, type RequestHandler } from 'express';
import { createMembers, MemberError, type IssuedLink, type MemberActor } from './members.service.ts';
import type { Database } from '@skiptrace/storage';

export interface MembersRouterDeps {
  db: Database;
  audit: AuditLog;
  requireScope(scope: ApiScope): RequestHandler;
  /** Base URL of the sign-in service (AUTH_ISSUER): links are `<issuer>/interaction/invitation/<token>`. */
  issuer: string;
  logger: Logger;
  /** Told the id of a user whose role or membership changed (the gateway's member check forgets them). */
  onMemberChanged?: (userId: string) => void;
}

/** Where a link of each kind is redeemed (the auth service's sign-in pages). */
export const LINK_PATHS = { invitation: '/interaction/invitation', password_reset: '/interaction/reset' } as const;

const actorOf = (req: Request): MemberActor => {
  const auth = req.auth!;
  return {
    role: auth.role ?? roleOfScopes(auth.scopes),
    ...(auth.subject !== auth.clientId ? { userId: auth.subject } : {}),
  };
};

function refuse(err: unknown): never {
  if (err instanceof MemberError) {
    if (err.reason === 'role') throw new ApiError('insufficient_role', err.message);
    if (err.reason === 'conflict') throw new ApiError('conflict', err.message);
    throw new ApiError('not_found', err.message);
  }
  throw err;
}

export function createMembersRouter(deps: MembersRouterDeps): Router {
  const { audit } = deps;
  const changed = (userId: string) => deps.onMemberChanged?.(userId);
  const members = createMembers(deps.db);
  const issuer = deps.issuer.replace(/\/+$/, '');
  const log = deps.logger.child({ scope: 'members-api' });
  const router = Router();
  const mount = { router, requireScope: deps.requireScope, base: '/members' };
  const linkView = (kind: keyof typeof LINK_PATHS, issued: IssuedLink): MemberLink => ({
    member: issued.member,
    link: `${issuer}${LINK_PATHS[kind]}/${issued.token}`,
    expires_at: issued.expiresAt.toISOString(),
    emailed: false,
  });

  mountRoute(mount, membersApi.listMembers, async (_input, req, res) => {
    res.json({ data: await members.list(accountOf(req)) });
  });

  mountRoute(mount, membersApi.inviteMember, async ({ body }, req, res) => {
    const issued = await members.invite(accountOf(req), body, actorOf(req)).catch(refuse);
    log.info({ accountId: accountOf(req), invitation: issued.member.id }, 'member invited');
    await audit.record({
      ...auditContext(req),
      action: 'member.invited',
      target: { type: 'invitation', id: issued.member.id },
      details: { email: issued.member.email, role: issued.member.role },
    });
    res.status(201).json(linkView('invitation', issued));
  });

  mountRoute(mount, membersApi.changeMemberRole, async ({ params, body }, req, res) => {
    const { member, from } = await members.changeRole(accountOf(req), params.id, body.role, actorOf(req)).catch(refuse);
    changed(member.id);
    await audit.record({
      ...auditContext(req),
      action: 'member.role_changed',
      target: { type: 'member', id: member.id },
      details: { email: member.email, from, to: member.role },
    });
    res.json(member);
  });

  mountRoute(mount, membersApi.removeMember, async ({ params }, req, res) => {
    const removed = await members.remove(accountOf(req), params.id, actorOf(req)).catch(refuse);
    changed(params.id);
    await audit.record({
      ...auditContext(req),
      action: 'member.removed',
      target: { type: removed.kind === 'user' ? 'member' : 'invitation', id: params.id },
      details: { email: removed.email, role: removed.role },
    });
    res.status(204).end();
  });

  mountRoute(mount, membersApi.resetMemberPassword, async ({ params }, req, res) => {
    const issued = await members.issuePasswordReset(accountOf(req), params.id, actorOf(req)).catch(refuse);
    changed(params.id);
    await audit.record({
      ...auditContext(req),
      action: 'member.password_reset_issued',
      target: { type: 'member', id: params.id },
      details: { email: issued.member.email },
    });
    res.json(linkView('password_reset', issued));
  });

  return router;
}
