/**
 * The web console's OAuth client: public (no secret, PKCE required), authorization code +
 * refresh token, scopes "read write". Registered on every start so its redirect URIs follow
 * the configured public URL (a changed PORT or PUBLIC_URL replaces them). It belongs to a
 * service account of its own; the tokens it obtains carry the signed-in user's account.
 */
import { CONSOLE_CLIENT_ID } from '@skiptrace/contracts';
import type { Database } from '@skiptrace/storage';
import type { Accounts } from './accounts.service.ts';

export const CONSOLE_ACCOUNT_ID = 'acc_console';

export async function ensureConsoleClient(
  db: Database,
  accounts: Accounts,
  options: { redirectUris: string[]; clientId?: string },
): Promise<void> {
  const clientId = options.clientId ?? CONSOLE_CLIENT_ID;
  const existing = await accounts.findClient(clientId);
  if (existing) {
    if (existing.secretHash !== null) throw new Error(`client ${clientId} exists and is not a public client`);
    const same =
      existing.redirectUris.length === options.redirectUris.length &&
      existing.redirectUris.every((uri, i) => uri === options.redirectUris[i]);
    if (!same) {
      await db.query('UPDATE clients SET redirect_uris = $2 WHERE client_id = $1', [clientId, options.redirectUris]);
    }
    return;
  }
  try {
    if (!(await accounts.findAccount(CONSOLE_ACCOUNT_ID))) {
      await accounts.createAccount({ id: CONSOLE_ACCOUNT_ID, name: 'Web console (public OAuth client)' });
    }
    await accounts.createClient({
      clientId,
      name: 'Skip-trace console',
      accountId: CONSOLE_ACCOUNT_ID,
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: options.redirectUris,
      scopes: 'read write',
      public: true,
    });
  } catch (err) {
    // Another replica starting at the same moment registered it first (primary-key conflict).
    if (!(await accounts.findClient(clientId))) throw err;
  }
}
