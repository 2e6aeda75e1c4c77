/**
 * The web console's OAuth client: public (no secret, PKCE required), authorization code +
 * refresh token, scopes "read write admin" (the auth server grants `admin` through a
 * sign-in to this first-party client only). Registered on every start so its redirect URIs
 * (<console>/callback, and <console>/signed-out after logout) and scopes follow the
 * configured public URL and this release: a changed PORT or PUBLIC_URL replaces them. It
 * belongs to a service account of its own; the tokens it obtains carry the signed-in
 * user's account.
 */
import { CONSOLE_CLIENT_ID } from '@skiptrace/contracts';
import type { Accounts } from '@skiptrace/accounts';

export const CONSOLE_ACCOUNT_ID = 'acc_console';
export const CONSOLE_SCOPES = 'read write admin';

export async function ensureConsoleClient(
  accounts: Accounts,
  options: { consoleUrl: string; clientId?: string },
): Promise<void> {
  const clientId = options.clientId ?? CONSOLE_CLIENT_ID;
  const base = options.consoleUrl.replace(/\/$/, '');
  const redirectUris = [`${base}/callback`];
  // Where the console shows "signed out" after RP-initiated logout (end_session).
  const metadata = { post_logout_redirect_uris: [`${base}/signed-out`] };
  const existing = await accounts.findClient(clientId);
  if (existing) {
    if (existing.secretHash !== null) throw new Error(`client ${clientId} exists and is not a public client`);
    const same =
      JSON.stringify(existing.redirectUris) === JSON.stringify(redirectUris) &&
      JSON.stringify(existing.metadata.post_logout_redirect_uris) ===
        JSON.stringify(metadata.post_logout_redirect_uris) &&
      existing.scopes === CONSOLE_SCOPES;
    if (!same) {
      await accounts.updateClientRegistration(clientId, { redirectUris, metadata, scopes: CONSOLE_SCOPES });
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
      redirectUris,
      scopes: CONSOLE_SCOPES,
      public: true,
      metadata,
    });
  } catch (err) {
    // Another replica starting at the same moment registered it first (primary-key conflict).
    if (!(await accounts.findClient(clientId))) throw err;
  }
}
