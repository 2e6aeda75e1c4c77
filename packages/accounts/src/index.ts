/**
 * @skiptrace/accounts: accounts, users and API clients (the records the OAuth server signs
 * in and the gateway's client-management API edits), secret hashing, and the admin helpers
 * the CLI uses. Used by packages/auth, packages/gateway and services/cli; loads no OAuth
 * server.
 */
export {
  createAccounts,
  AccountError,
  API_SCOPES,
  GRANT_TYPES,
  type Accounts,
  type Account,
  type User,
  type ClientRecord,
  type CreateClientInput,
} from './accounts.service.ts';
export { createVerifyCache, hashSecret, randomSecret, verifySecret } from './passwords.ts';
export { withAuthDatabase } from './admin.ts';
export { createClientsRouter, clientView, type ClientsRouterDeps } from './clients.router.ts';
export {
  createMembers,
  memberView,
  MemberError,
  LINK_TTL_MS,
  type Members,
  type MemberActor,
  type MemberLinkInfo,
  type IssuedLink,
  type LinkKind,
} from './members.service.ts';
export { createMembersRouter, LINK_PATHS, type MembersRouterDeps } from './members.router.ts';
export { createMemberCheck, type MemberCheckOptions } from './member-check.ts';
