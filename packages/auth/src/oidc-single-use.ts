/**
 * Single use of oidc-provider's consumable artefacts, shared by both storage adapters.
 *
 * oidc-provider reads an artefact (find), checks its `consumed` flag, then calls the
 * adapter's consume(). Two redemptions of one code that arrive together both read it
 * unconsumed, so the flag alone lets both through. The adapters therefore make consume()
 * the gate: it marks the artefact atomically (a conditional UPDATE, SET NX) and, when the
 * artefact was already consumed by a concurrent request, revokes everything issued under
 * its grant — what oidc-provider does on a sequential reuse — and throws the error that a
 * sequential reuse gets. Exactly one of N concurrent redemptions succeeds.
 */
import { errors } from 'oidc-provider';

/** Consumable models whose reuse revokes their grant (lib/helpers/grant_source.js, refresh_token.js). */
const GRANT_SOURCES: Record<string, string> = {
  AuthorizationCode: 'authorization code already consumed',
  RefreshToken: 'refresh token already used',
  DeviceCode: 'device code already consumed',
  BackchannelAuthenticationRequest: 'backchannel authentication request already consumed',
  PreAuthorizedCode: 'pre-authorized code already consumed',
};

/** Models whose artefacts oidc-provider consumes. */
export const CONSUMABLE = new Set([...Object.keys(GRANT_SOURCES), 'PushedAuthorizationRequest']);

/** Whether reusing an artefact of this model revokes its grant. */
export const revokesGrantOnReuse = (model: string): boolean => model in GRANT_SOURCES;

/** The error the loser of a concurrent consume gets: the one a sequential reuse gets. */
export function alreadyConsumed(model: string): Error {
  if (model === 'PushedAuthorizationRequest')
    return new errors.InvalidRequestUri('request_uri is invalid, expired, or was already used');
  return new errors.InvalidGrant(GRANT_SOURCES[model] ?? `${model} already consumed`);
}

/** The error when the artefact vanished between find() and consume() (revoked or expired). */
export function vanished(model: string): Error {
  if (model === 'PushedAuthorizationRequest')
    return new errors.InvalidRequestUri('request_uri is invalid, expired, or was already used');
  return new errors.InvalidGrant(`${model} not found`);
}
