/**
 * The first-party web console signs in without a consent page: oidc-provider's
 * `loadExistingGrant` hook (the documented place to "skip consent" for a client) gives its
 * sign-ins a grant that already holds what this request asks for, so the consent prompt's
 * checks find nothing missing. It grants exactly what the consent page's Allow would
 * (interactions.router.ts): the requested OpenID scopes and claims, and the requested API
 * scopes the resource server offers this client (grantableScope: its registered scopes,
 * `admin` only where it may hold it). Every other client keeps the library's behaviour: the
 * grant of an earlier consent, or none, and so the consent page.
 */
import type { Grant, KoaContextWithOIDC } from 'oidc-provider';
import { CONSOLE_CLIENT_ID } from '@skiptrace/contracts';

/** Clients whose sign-ins need no consent: the console only (ours, registered on every start). */
export const isFirstParty = (clientId: string | undefined): boolean => clientId === CONSOLE_CLIENT_ID;

/** oidc-provider's default: the grant of this interaction's consent, else the session's grant for the client. */
async function existingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const clientId = ctx.oidc.client!.clientId;
  const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(clientId);
  return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
}

export async function loadExistingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const found = await existingGrant(ctx);
  const clientId = ctx.oidc.client?.clientId;
  const accountId = ctx.oidc.session?.accountId;
  if (!isFirstParty(clientId) || !accountId) return found;
  // A grant of another sign-in (the library refuses a mismatch): start a new one.
  const grant =
    found && found.accountId === accountId ? found : new ctx.oidc.provider.Grant({ accountId, clientId: clientId! });
  const { oidc } = ctx;
  if (oidc.requestParamOIDCScopes.size) grant.addOIDCScope(oidc.requestParamOIDCScopes);
  if (oidc.requestParamClaims.size) grant.addOIDCClaims(oidc.requestParamClaims);
  for (const [indicator, server] of Object.entries(oidc.resourceServers ?? {})) {
    const scopes = [...oidc.requestParamScopes].filter((scope) => server.scopes.has(scope));
    if (scopes.length) grant.addResourceScope(indicator, scopes);
  }
  await grant.save();
  return grant;
}
