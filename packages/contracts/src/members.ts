import { z } from 'zod';
import type { Scope } from './oauth.ts';

/**
 * Members of an account and their roles (docs/oauth.md "Members and roles"). A user's role
 * is in their access token (`role` claim); the gateway allows a route to a role at or above
 * the route's least role. `owner` and `admin` administer the account (members, API clients,
 * webhook endpoints, the audit log); `member` traces, uploads and downloads; `viewer` reads.
 */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** Whether `role` is `least` or above it. */
export const roleAtLeast = (role: Role, least: Role): boolean => RANK[role] >= RANK[least];

/** The lower of two roles. */
export const lowerRole = (a: Role, b: Role): Role => (RANK[a] <= RANK[b] ? a : b);

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

/** The least role a route of a scope needs unless the route names its own (RouteSpec.role). */
export const LEAST_ROLE_OF_SCOPE: Record<Scope, Role> = { read: 'viewer', write: 'member', admin: 'admin' };

/**
 * The role a token without a `role` claim acts with: an API client (client_credentials) is
 * not a member; its scopes limit it as before, and it counts as `admin` when it holds the
 * admin scope, else as `member` (it can never act as an owner).
 */
export const roleOfScopes = (scopes: readonly string[]): Role => (scopes.includes('admin') ? 'admin' : 'member');

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(320, 'must be at most 320 characters')
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address');

export const MemberInvite = z
  .object({
    email,
    role: z.enum(ROLES).default('member').describe('Default member; only an owner may invite an owner'),
  })
  .strict()
  .meta({ id: 'MemberInvite' });
export type MemberInvite = z.infer<typeof MemberInvite>;

export const MemberPatch = z
  .object({
    role: z.enum(ROLES).describe('Only an owner may make or unmake an owner; an account keeps one owner at least'),
  })
  .strict()
  .meta({ id: 'MemberPatch' });
export type MemberPatch = z.infer<typeof MemberPatch>;

export const Member = z
  .object({
    id: z.string().describe('User id (usr_…), or the invitation id (inv_…) while invited'),
    email: z.string(),
    role: z.enum(ROLES),
    status: z.enum(['active', 'invited']).describe('invited: the invitation is not accepted yet'),
    created_at: z.string().describe('ISO 8601'),
    invitation_expires_at: z.string().nullable().describe('ISO 8601, while invited'),
  })
  .meta({ id: 'Member' });
export type Member = z.infer<typeof Member>;

export const MemberList = z.object({ data: z.array(Member) }).meta({ id: 'MemberList' });

export const MemberLink = z
  .object({
    member: Member,
    link: z
      .string()
      .describe('One-time link to the sign-in service: shown only in this answer, give it to the member yourself'),
    expires_at: z.string().describe('ISO 8601; the link works once, until then'),
    emailed: z.boolean().describe('Always false: no mail is sent (no mail server is assumed)'),
  })
  .meta({ id: 'MemberLink' });
export type MemberLink = z.infer<typeof MemberLink>;
