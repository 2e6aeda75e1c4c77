/**
 * `skiptrace members list|invite|role|remove|reset-password`: the account's members through
 * the running system's API (/api/v1/members; docs/oauth.md, members and roles), never the
 * store directly. The token must hold the `admin` scope and act as an owner or an admin: an
 * admin API client (client_credentials, `--client-id` with `admin`) counts as an admin and
 * cannot touch owners. Links are printed once, in the JSON answer.
 */
import { unwrap, type Schemas } from '@skiptrace/client';
import { API_NOTES, API_OPTIONS, connect } from '../api.ts';
import { requireString, UsageError, type Command } from '../command.ts';

type Role = Schemas['Member']['role'];
const ROLES: readonly Role[] = ['owner', 'admin', 'member', 'viewer'];

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

function roleOf(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) throw new UsageError(`--role must be one of: ${ROLES.join(', ')}`);
  return value as Role;
}

const memberId = (positionals: string[]): string => {
  const [id, extra] = positionals;
  if (!id) throw new UsageError('ID is required (usr_… or inv_…; see `skiptrace members list`)');
  if (extra !== undefined) throw new UsageError(`unexpected argument: ${extra}`);
  return id;
};

const NOTES = [
  'The token needs the admin scope and the owner or admin role (an admin API client acts as an admin).',
  ...API_NOTES,
];

export const membersList: Command = {
  name: 'members list',
  summary: "List the account's members and open invitations (JSON)",
  options: { ...API_OPTIONS },
  notes: NOTES,
  async run({ values, env }) {
    const { api } = await connect(values, 'admin', env);
    print((await unwrap(api.GET('/members'))).data);
    return 0;
  },
};

export const membersInvite: Command = {
  name: 'members invite',
  summary: 'Invite an email with a role; prints the one-time link to hand over (no mail is sent)',
  options: {
    email: { type: 'string', value: 'E', description: 'email of the new member (required)' },
    role: { type: 'string', value: 'R', description: `${ROLES.join('|')} (default member)` },
    ...API_OPTIONS,
  },
  notes: NOTES,
  async run({ values, env }) {
    const email = requireString(values, 'email');
    const role = roleOf(typeof values.role === 'string' ? values.role : 'member');
    const { api } = await connect(values, 'admin', env);
    const link: Schemas['MemberLink'] = await unwrap(api.POST('/members', { body: { email, role } }));
    print(link);
    return 0;
  },
};

export const membersRole: Command = {
  name: 'members role',
  summary: "Change a member's role",
  args: 'ID',
  options: { role: { type: 'string', value: 'R', description: `${ROLES.join('|')} (required)` }, ...API_OPTIONS },
  notes: NOTES,
  async run({ values, positionals, env }) {
    const id = memberId(positionals);
    const role = roleOf(requireString(values, 'role'));
    const { api } = await connect(values, 'admin', env);
    print(await unwrap(api.PATCH('/members/{id}', { params: { path: { id } }, body: { role } })));
    return 0;
  },
};

export const membersRemove: Command = {
  name: 'members remove',
  summary: 'Remove a member (their sign-ins end) or withdraw an invitation',
  args: 'ID',
  options: { ...API_OPTIONS },
  notes: NOTES,
  async run({ values, positionals, env }) {
    const id = memberId(positionals);
    const { api } = await connect(values, 'admin', env);
    await unwrap(api.DELETE('/members/{id}', { params: { path: { id } } }));
    print({ removed: id });
    return 0;
  },
};

export const membersResetPassword: Command = {
  name: 'members reset-password',
  summary: 'Print a one-time link for the member to set a new password',
  args: 'ID',
  options: { ...API_OPTIONS },
  notes: NOTES,
  async run({ values, positionals, env }) {
    const id = memberId(positionals);
    const { api } = await connect(values, 'admin', env);
    print(await unwrap(api.POST('/members/{id}/reset-password', { params: { path: { id } } })));
    return 0;
  },
};

export const memberCommands = [membersList, membersInvite, membersRole, membersRemove, membersResetPassword];
