/**
 * Members of an account: its users with their roles, and the one-time links an admin hands
 * out — an invitation (the invitee sets a password and becomes a user with the invited
 * role) or a password reset. Links carry a random 256-bit token; only its SHA-256 is
 * stored; each works once, until it expires. Who may do what (docs/oauth.md, roles):
 * admins manage admins, members and viewers; only an owner makes, unmakes, removes or
 * resets an owner; an account keeps at least one owner. Removing a user or resetting their
 * password ends their sign-ins: the OAuth server finds no account for their older sessions
 * and refresh tokens (users.signed_out_at).
 */
import { createHash, randomBytes } from 'node:crypto';
import { isRole, roleAtLeast, type Member, type Role } from '@skiptrace/contracts';
import type { Database, Sql } from '@skiptrace/storage';
import { AccountError, toUser, type User, type UserRow } from './accounts.types.ts';
import { hashSecret, randomSecret } from './passwords.ts';

/** How long a link works. */
export const LINK_TTL_MS = 7 * 24 * 3600_000;

export type LinkKind = 'invitation' | 'password_reset';

/** Why a member operation was refused: `role` → 403 insufficient_role, `conflict` → 409, `not_found` → 404. */
export class MemberError extends Error {
  override name = 'MemberError';
  readonly reason: 'role' | 'conflict' | 'not_found';
  constructor(reason: 'role' | 'conflict' | 'not_found', message: string) {
    super(message);
    this.reason = reason;
  }
}

interface LinkRow {
  id: string;
  kind: LinkKind;
  account_id: string;
  email: string;
  role: Role | null;
  user_id: string | null;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** A link as the sign-in page shows it (valid: not used, not expired). */
export interface MemberLinkInfo {
  id: string;
  kind: LinkKind;
  accountId: string;
  email: string;
  role: Role | null;
  userId: string | null;
  expiresAt: Date;
}

export interface IssuedLink {
  member: Member;
  /** The token for the link; shown once. */
  token: string;
  expiresAt: Date;
}

/** The acting member: their role, and their user id when a user (not an API client). */
export interface MemberActor {
  role: Role;
  userId?: string;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;

export const memberView = (user: User): Member => ({
  id: user.id,
  email: user.email,
  role: user.role,
  status: 'active',
  created_at: user.createdAt.toISOString(),
  invitation_expires_at: null,
});

const invitationView = (row: LinkRow): Member => ({
  id: row.id,
  email: row.email,
  role: row.role ?? 'member',
  status: 'invited',
  created_at: row.created_at.toISOString(),
  invitation_expires_at: row.expires_at.toISOString(),
});

/** An owner role is given, taken or touched only by an owner. */
function requireOwnerFor(actor: MemberActor, ...roles: Role[]): void {
  if (roles.includes('owner') && actor.role !== 'owner')
    throw new MemberError('role', 'only an owner may make, change, remove or reset an owner');
  if (!roleAtLeast(actor.role, 'admin')) throw new MemberError('role', 'only an owner or an admin manages members');
}

export function createMembers(db: Database) {
  async function usersOf(sql: Sql, accountId: string): Promise<User[]> {
    const { rows } = await sql.query<UserRow>(
      'SELECT id, account_id, email, role, created_at FROM users WHERE account_id = $1 ORDER BY created_at, id',
      [accountId],
    );
    return rows.map(toUser);
  }

  async function userOf(sql: Sql, accountId: string, userId: string): Promise<User> {
    const { rows } = await sql.query<UserRow>(
      'SELECT id, account_id, email, role, created_at FROM users WHERE id = $1 AND account_id = $2 FOR UPDATE',
      [userId, accountId],
    );
    if (!rows[0]) throw new MemberError('not_found', 'member not found');
    return toUser(rows[0]);
  }

  /** Fails when taking `user` out of the owners would leave the account without one. */
  async function keepAnOwner(sql: Sql, user: User): Promise<void> {
    if (user.role !== 'owner') return;
    // Lock the account's owners so two concurrent demotions cannot both pass.
    const { rows } = await sql.query<{ id: string }>(
      `SELECT id FROM users WHERE account_id = $1 AND role = 'owner' FOR UPDATE`,
      [user.accountId],
    );
    if (rows.length <= 1) throw new MemberError('conflict', 'the account must keep at least one owner');
  }

  async function issue(
    sql: Sql,
    input: { kind: LinkKind; accountId: string; email: string; role?: Role; userId?: string; by?: string },
  ): Promise<{ row: LinkRow; token: string }> {
    const token = randomSecret();
    const { rows } = await sql.query<LinkRow>(
      `INSERT INTO member_links (id, kind, account_id, email, role, user_id, token_hash, created_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [
        newId(input.kind === 'invitation' ? 'inv' : 'rst'),
        input.kind,
        input.accountId,
        input.email,
        input.role ?? null,
        input.userId ?? null,
        hashToken(token),
        input.by ?? null,
        new Date(Date.now() + LINK_TTL_MS),
      ],
    );
    return { row: rows[0]!, token };
  }

  /** The account's users and open invitations, oldest first. */
  async function list(accountId: string): Promise<Member[]> {
    const users = await usersOf(db, accountId);
    const { rows } = await db.query<LinkRow>(
      `SELECT * FROM member_links WHERE account_id = $1 AND kind = 'invitation' AND used_at IS NULL
         AND expires_at > now() ORDER BY created_at, id`,
      [accountId],
    );
    return [...users.map(memberView), ...rows.map(invitationView)];
  }

  /** Invites an email with a role; replaces an open invitation of the same email. */
  async function invite(
    accountId: string,
    input: { email: string; role: Role },
    actor: MemberActor,
  ): Promise<IssuedLink> {
    requireOwnerFor(actor, input.role);
    const email = input.email.trim().toLowerCase();
    return db.transaction(async (tx) => {
      const existing = await tx.query('SELECT 1 FROM users WHERE email = $1', [email]);
      if (existing.rowCount > 0) throw new MemberError('conflict', `a user with email ${email} already exists`);
      await tx.query(
        `DELETE FROM member_links WHERE account_id = $1 AND email = $2 AND kind = 'invitation' AND used_at IS NULL`,
        [accountId, email],
      );
      const { row, token } = await issue(tx, {
        kind: 'invitation',
        accountId,
        email,
        role: input.role,
        ...(actor.userId ? { by: actor.userId } : {}),
      });
      return { member: invitationView(row), token, expiresAt: row.expires_at };
    });
  }

  /** Changes a user's role; the change shows in their next request (the gateway checks it). */
  async function changeRole(
    accountId: string,
    userId: string,
    role: Role,
    actor: MemberActor,
  ): Promise<{ member: Member; from: Role }> {
    return db.transaction(async (tx) => {
      const user = await userOf(tx, accountId, userId);
      requireOwnerFor(actor, user.role, role);
      if (role !== 'owner') await keepAnOwner(tx, user);
      await tx.query('UPDATE users SET role = $2 WHERE id = $1', [userId, role]);
      return { member: memberView({ ...user, role }), from: user.role };
    });
  }

  /** Removes a user (their sign-ins end at once) or withdraws an invitation (inv_…). */
  async function remove(
    accountId: string,
    id: string,
    actor: MemberActor,
  ): Promise<{ kind: 'user' | 'invitation'; email: string; role: Role }> {
    return db.transaction(async (tx) => {
      if (id.startsWith('inv_')) {
        const { rows } = await tx.query<LinkRow>(
          `DELETE FROM member_links WHERE id = $1 AND account_id = $2 AND kind = 'invitation' AND used_at IS NULL
           RETURNING *`,
          [id, accountId],
        );
        if (!rows[0]) throw new MemberError('not_found', 'invitation not found');
        requireOwnerFor(actor, rows[0].role ?? 'member');
        return { kind: 'invitation' as const, email: rows[0].email, role: rows[0].role ?? 'member' };
      }
      const user = await userOf(tx, accountId, id);
      requireOwnerFor(actor, user.role);
      await keepAnOwner(tx, user);
      // Without the user, their sessions and refresh tokens find no account: they end now.
      await tx.query('DELETE FROM users WHERE id = $1', [user.id]);
      return { kind: 'user' as const, email: user.email, role: user.role };
    });
  }

  /** A one-time link for a user to set a new password (the old one works until it is used). */
  async function issuePasswordReset(accountId: string, userId: string, actor: MemberActor): Promise<IssuedLink> {
    return db.transaction(async (tx) => {
      const user = await userOf(tx, accountId, userId);
      requireOwnerFor(actor, user.role);
      await tx.query(`DELETE FROM member_links WHERE user_id = $1 AND kind = 'password_reset' AND used_at IS NULL`, [
        user.id,
      ]);
      const { row, token } = await issue(tx, {
        kind: 'password_reset',
        accountId,
        email: user.email,
        userId: user.id,
        ...(actor.userId ? { by: actor.userId } : {}),
      });
      return { member: memberView(user), token, expiresAt: row.expires_at };
    });
  }

  /** The link of a token while it is valid (unused, unexpired, of the given kind). */
  async function findLink(kind: LinkKind, token: string): Promise<MemberLinkInfo | undefined> {
    const { rows } = await db.query<LinkRow>(
      `SELECT * FROM member_links WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now()`,
      [hashToken(token), kind],
    );
    const r = rows[0];
    return (
      r && {
        id: r.id,
        kind: r.kind,
        accountId: r.account_id,
        email: r.email,
        role: r.role,
        userId: r.user_id,
        expiresAt: r.expires_at,
      }
    );
  }

  /**
   * Uses a link once: an invitation creates the user with its role, a reset sets the
   * user's new password and ends their sign-ins. Undefined when the link is unknown, used
   * or expired (also when two redemptions race: exactly one wins).
   */
  async function redeem(kind: LinkKind, token: string, password: string): Promise<User | undefined> {
    if (password.length < 8) throw new AccountError('password must have at least 8 characters');
    const passwordHash = await hashSecret(password);
    return db.transaction(async (tx) => {
      const { rows } = await tx.query<LinkRow>(
        `UPDATE member_links SET used_at = now()
         WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now() RETURNING *`,
        [hashToken(token), kind],
      );
      const link = rows[0];
      if (!link) return undefined;
      if (link.kind === 'invitation') {
        const role = isRole(link.role) ? link.role : 'member';
        const created = await tx.query<UserRow>(
          `INSERT INTO users (id, account_id, email, password_hash, role) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (email) DO NOTHING RETURNING id, account_id, email, role, created_at`,
          [newId('usr'), link.account_id, link.email, passwordHash, role],
        );
        if (!created.rows[0]) throw new AccountError(`a user with email ${link.email} already exists`);
        return toUser(created.rows[0]);
      }
      // signed_out_at ends the sessions and refresh tokens of earlier sign-ins (packages/auth findAccount).
      const updated = await tx.query<UserRow>(
        `UPDATE users SET password_hash = $2, signed_out_at = now() WHERE id = $1
         RETURNING id, account_id, email, role, created_at, signed_out_at`,
        [link.user_id, passwordHash],
      );
      return updated.rows[0] && toUser(updated.rows[0]);
    });
  }

  /** A user's current account and role (the gateway's check of a token's role); undefined when removed. */
  async function current(userId: string): Promise<{ accountId: string; role: Role; email: string } | undefined> {
    const { rows } = await db.query<{ account_id: string; role: Role; email: string }>(
      'SELECT account_id, role, email FROM users WHERE id = $1',
      [userId],
    );
    return rows[0] && { accountId: rows[0].account_id, role: rows[0].role, email: rows[0].email };
  }

  return { list, invite, changeRole, remove, issuePasswordReset, findLink, redeem, current };
}

export type Members = ReturnType<typeof createMembers>;
