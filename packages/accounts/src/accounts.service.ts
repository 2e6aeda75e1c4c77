/**
 * Accounts (tenants), their users and their OAuth clients, in the Database. Passwords and
 * client secrets are stored as scrypt hashes; a client's plaintext secret is returned once,
 * by createClient.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '@skiptrace/storage';
import { dummyHash, hashSecret, randomSecret, verifySecret } from './passwords.ts';
import {
  AccountError,
  GRANT_TYPES,
  toClient,
  validateScopes,
  type Account,
  type ClientRecord,
  type ClientRow,
  type CreateClientInput,
  toUser,
  type User,
  type UserRow,
} from './accounts.types.ts';
import { isRole, ROLES, TRACE_SCOPES, type Role } from '@skiptrace/contracts';

export * from './accounts.types.ts';

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;

export function createAccounts(db: Database) {
  async function createAccount(input: { name: string; id?: string }): Promise<Account> {
    const { rows } = await db.query<{ id: string; name: string; created_at: Date }>(
      'INSERT INTO accounts (id, name) VALUES ($1, $2) RETURNING id, name, created_at',
      [input.id ?? newId('acc'), input.name],
    );
    const row = rows[0]!;
    return { id: row.id, name: row.name, createdAt: row.created_at };
  }

  async function findAccount(id: string): Promise<Account | undefined> {
    const { rows } = await db.query<{ id: string; name: string; created_at: Date }>(
      'SELECT id, name, created_at FROM accounts WHERE id = $1',
      [id],
    );
    return rows[0] && { id: rows[0].id, name: rows[0].name, createdAt: rows[0].created_at };
  }

  async function accountFor(accountId: string | undefined, name: string): Promise<string> {
    if (accountId === undefined) return (await createAccount({ name })).id;
    if (!(await findAccount(accountId))) throw new AccountError(`account ${accountId} does not exist`);
    return accountId;
  }

  /**
   * A user of an account. Role: given, else `owner` of a new account (none given) and
   * `member` of an existing one.
   */
  async function createUser(input: {
    email: string;
    password: string;
    accountId?: string;
    role?: Role;
  }): Promise<User> {
    const email = input.email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new AccountError('email is not valid');
    if (input.password.length < 8) throw new AccountError('password must have at least 8 characters');
    if (input.role !== undefined && !isRole(input.role))
      throw new AccountError(`role must be one of: ${ROLES.join(', ')}`);
    const accountId = await accountFor(input.accountId, email);
    const role = input.role ?? (input.accountId === undefined ? 'owner' : 'member');
    const { rows } = await db.query<{ id: string; created_at: Date }>(
      `INSERT INTO users (id, account_id, email, password_hash, role) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (email) DO NOTHING RETURNING id, created_at`,
      [newId('usr'), accountId, email, await hashSecret(input.password), role],
    );
    if (!rows[0]) throw new AccountError(`a user with email ${email} already exists`);
    return { id: rows[0].id, accountId, email, role, createdAt: rows[0].created_at };
  }

  async function findUser(id: string): Promise<User | undefined> {
    const { rows } = await db.query<UserRow>(
      'SELECT id, account_id, email, role, created_at, signed_out_at FROM users WHERE id = $1',
      [id],
    );
    return rows[0] && toUser(rows[0]);
  }

  async function findUserByEmail(email: string): Promise<User | undefined> {
    const { rows } = await db.query<UserRow>(
      'SELECT id, account_id, email, role, created_at FROM users WHERE email = $1',
      [email.trim().toLowerCase()],
    );
    return rows[0] && toUser(rows[0]);
  }

  /** The user when email and password match; the same work is done for unknown emails. */
  async function verifyUser(email: string, password: string): Promise<User | undefined> {
    const { rows } = await db.query<UserRow & { password_hash: string }>(
      'SELECT id, account_id, email, role, password_hash, created_at FROM users WHERE email = $1',
      [email.trim().toLowerCase()],
    );
    const r = rows[0];
    const ok = await verifySecret(password, r?.password_hash ?? (await dummyHash()));
    if (!r || !ok) return undefined;
    return toUser(r);
  }

  async function createClient(input: CreateClientInput): Promise<{ client: ClientRecord; clientSecret?: string }> {
    const grantTypes = input.grantTypes ?? ['client_credentials'];
    const unknown = grantTypes.filter((g) => !(GRANT_TYPES as readonly string[]).includes(g));
    if (unknown.length || !grantTypes.length)
      throw new AccountError(`grant types must be among: ${GRANT_TYPES.join(', ')}`);
    const redirectUris = input.redirectUris ?? [];
    if (grantTypes.includes('authorization_code') && !redirectUris.length)
      throw new AccountError('an authorization_code client needs at least one redirect URI');
    for (const uri of redirectUris) if (!URL.canParse(uri)) throw new AccountError(`redirect URI ${uri} is not a URL`);
    if (input.public && grantTypes.includes('client_credentials'))
      throw new AccountError('a public client cannot use client_credentials');
    const scopes = validateScopes(input.scopes ?? TRACE_SCOPES.join(' '));
    const clientSecret = input.public ? undefined : (input.clientSecret ?? randomSecret());
    const accountId = await accountFor(input.accountId, input.name);
    const { rows } = await db.query<ClientRow>(
      `INSERT INTO clients (client_id, account_id, secret_hash, name, grant_types, redirect_uris, scopes, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [
        input.clientId ?? newId('cli'),
        accountId,
        clientSecret === undefined ? null : await hashSecret(clientSecret),
        input.name,
        grantTypes,
        redirectUris,
        scopes,
        JSON.stringify(input.metadata ?? {}),
      ],
    );
    return { client: toClient(rows[0]!), ...(clientSecret === undefined ? {} : { clientSecret }) };
  }

  async function findClient(clientId: string): Promise<ClientRecord | undefined> {
    const { rows } = await db.query<ClientRow>('SELECT * FROM clients WHERE client_id = $1', [clientId]);
    return rows[0] && toClient(rows[0]);
  }

  async function deleteClient(clientId: string): Promise<boolean> {
    const { rowCount } = await db.query('DELETE FROM clients WHERE client_id = $1', [clientId]);
    return rowCount > 0;
  }

  /** The account's clients, oldest first. */
  async function listClients(accountId: string): Promise<ClientRecord[]> {
    const { rows } = await db.query<ClientRow>(
      'SELECT * FROM clients WHERE account_id = $1 ORDER BY created_at, client_id',
      [accountId],
    );
    return rows.map(toClient);
  }

  /**
   * A new secret for one of the account's confidential clients; the old one stops working
   * at once. Undefined when the account has no such client; AccountError for a public one.
   */
  async function rotateClientSecret(
    accountId: string,
    clientId: string,
  ): Promise<{ client: ClientRecord; clientSecret: string } | undefined> {
    const existing = await findClient(clientId);
    if (!existing || existing.accountId !== accountId) return undefined;
    if (existing.secretHash === null) throw new AccountError('a public client has no secret to rotate');
    const clientSecret = randomSecret();
    const { rows } = await db.query<ClientRow>(
      'UPDATE clients SET secret_hash = $3 WHERE client_id = $1 AND account_id = $2 RETURNING *',
      [clientId, accountId, await hashSecret(clientSecret)],
    );
    return rows[0] && { client: toClient(rows[0]), clientSecret };
  }

  /** Replaces a client's redirect URIs, metadata and scopes (a first-party client registered on every start). */
  async function updateClientRegistration(
    clientId: string,
    registration: { redirectUris: string[]; metadata: Record<string, unknown>; scopes: string },
  ): Promise<void> {
    await db.query('UPDATE clients SET redirect_uris = $2, metadata = $3, scopes = $4 WHERE client_id = $1', [
      clientId,
      registration.redirectUris,
      JSON.stringify(registration.metadata),
      validateScopes(registration.scopes),
    ]);
  }

  /** Deletes one of the account's clients; false when the account has no such client. */
  async function revokeClient(accountId: string, clientId: string): Promise<boolean> {
    const { rowCount } = await db.query('DELETE FROM clients WHERE client_id = $1 AND account_id = $2', [
      clientId,
      accountId,
    ]);
    return rowCount > 0;
  }

  return {
    listClients,
    rotateClientSecret,
    revokeClient,
    createAccount,
    findAccount,
    createUser,
    findUser,
    findUserByEmail,
    verifyUser,
    createClient,
    findClient,
    updateClientRegistration,
    deleteClient,
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
