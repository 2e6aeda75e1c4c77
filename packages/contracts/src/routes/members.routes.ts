import { MemberInvite, MemberLink, MemberList, MemberPatch, Member } from '../members.ts';
import { StringIdParams } from './params.ts';
import { defineRoute } from './route.ts';

const tag = 'Members';
const memberId = StringIdParams('User id (usr_…), or an invitation id (inv_…) for DELETE');
const member = {
  id: 'usr_Q2x9c8VbN1mK0pLs',
  email: 'dana@acme.test',
  role: 'member',
  status: 'active',
  created_at: '2026-01-05T14:00:00.000Z',
  invitation_expires_at: null,
};
const linkExample = {
  member: {
    ...member,
    id: 'inv_7hG2kLm9Qa1zXc0v',
    status: 'invited',
    invitation_expires_at: '2026-01-12T14:00:00.000Z',
  },
  link: 'https://login.acme.test/interaction/invitation/Fq3…',
  expires_at: '2026-01-12T14:00:00.000Z',
  emailed: false,
};

export const listMembers = defineRoute({
  method: 'get',
  path: '/members',
  operationId: 'listMembers',
  summary: "The account's members and open invitations, oldest first",
  tag,
  scope: 'admin',
  responses: { 200: { description: 'Members', schema: MemberList } },
  errors: [],
});

export const inviteMember = defineRoute({
  method: 'post',
  path: '/members',
  operationId: 'inviteMember',
  summary: 'Invite someone by email: answers a one-time link for them to set a password (shown only here)',
  description:
    'No mail is sent: give the link to the new member. It works once, for 7 days; a new invitation to the same ' +
    'email replaces an open one. An email that already has a user is 409.',
  tag,
  scope: 'admin',
  body: MemberInvite,
  responses: { 201: { description: 'Invited', schema: MemberLink, example: linkExample } },
  errors: ['validation_failed', 'invalid_json', 'unsupported_media_type', 'conflict'],
});

export const changeMemberRole = defineRoute({
  method: 'patch',
  path: '/members/{id}',
  operationId: 'changeMemberRole',
  summary: "Change a member's role; takes effect on their next request",
  tag,
  scope: 'admin',
  params: memberId,
  body: MemberPatch,
  responses: { 200: { description: 'The member', schema: Member, example: member } },
  errors: ['validation_failed', 'invalid_json', 'unsupported_media_type', 'invalid_parameter', 'not_found', 'conflict'],
});

export const removeMember = defineRoute({
  method: 'delete',
  path: '/members/{id}',
  operationId: 'removeMember',
  summary: 'Remove a member (their sign-ins end at once) or withdraw an invitation',
  tag,
  scope: 'admin',
  params: memberId,
  responses: { 204: { description: 'Removed' } },
  errors: ['invalid_parameter', 'not_found', 'conflict'],
});

export const resetMemberPassword = defineRoute({
  method: 'post',
  path: '/members/{id}/reset-password',
  operationId: 'resetMemberPassword',
  summary: 'A one-time link for the member to set a new password (shown only here)',
  description:
    "The old password works until the link is used; then the member's sign-ins (sessions, refresh tokens) end. " +
    'Only an owner resets an owner.',
  tag,
  scope: 'admin',
  params: memberId,
  responses: { 200: { description: 'The link (shown only here)', schema: MemberLink } },
  errors: ['invalid_parameter', 'not_found'],
});

export const memberRoutes = [listMembers, inviteMember, changeMemberRole, removeMember, resetMemberPassword] as const;
