import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './ip-policy.ts';

/** A webhook target that resolves to (or is) an address the policy refuses. */
export class ForbiddenAddressError extends Error {
  override name = 'ForbiddenAddressError';
  readonly code = 'EFORBIDDENADDRESS';
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

const bareHost = (hostname: string) => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname);

/**
 * Which addresses a webhook may reach: `false` public only (the default), `true` any
 * (SKIPTRACE_WEBHOOK_ALLOW_PRIVATE), `'loopback'` loopback only (SKIPTRACE_WEBHOOK_LOOPBACK_ONLY:
 * test suites and offline demos, where nothing may leave the machine — a name other than
 * `localhost` is refused before any DNS query is sent).
 */
export type AddressPolicy = boolean | 'loopback';

/** The policy of a webhook configuration; loopback-only wins over allow-private. */
export const addressPolicy = (config: { allowPrivate: boolean; loopbackOnly?: boolean }): AddressPolicy =>
  config.loopbackOnly ? 'loopback' : config.allowPrivate;

const LOOPBACK_NAME = /^(localhost|[a-z0-9-]+(\.[a-z0-9-]+)*\.localhost)\.?$/i;
const LOCALHOST: LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

function isLoopbackAddress(literal: string): boolean {
  const address = literal.split('%')[0] ?? '';
  if (isIP(address) === 4) return address.startsWith('127.');
  if (isIP(address) === 6) return address === '::1' || /^::ffff:127\./i.test(address);
  return false;
}

/**
 * Resolves hostname (every A/AAAA record) and returns the addresses that may be dialled.
 * Refuses the whole host when any record is forbidden, so a name that mixes a public
 * and a private record cannot be used to reach the private one. A `true` policy skips
 * the check (one-process demo, deliberately internal deployments); `'loopback'` admits
 * loopback addresses and `localhost` names only, without resolving anything.
 */
export async function vetHost(hostname: string, policy: AddressPolicy, resolve = systemResolver) {
  const host = bareHost(hostname);
  const family = isIP(host);
  if (policy === 'loopback') {
    if (family ? isLoopbackAddress(host) : LOOPBACK_NAME.test(host))
      return family ? [{ address: host, family }] : LOCALHOST;
    throw new ForbiddenAddressError(`${host} is not a loopback address (webhooks are limited to this machine)`);
  }
  const addresses: LookupAddress[] = family ? [{ address: host, family }] : await resolve(host);
  if (addresses.length === 0) throw new ForbiddenAddressError(`${host} does not resolve`);
  if (!policy) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused)
      throw new ForbiddenAddressError(`${host} resolves to ${refused.address}, which is not a public address`);
  }
  return addresses;
}

/**
 * A `lookup` for net/tls connect options: the socket dials exactly the address that was
 * vetted in the same call, so there is no window between check and connect in which a
 * DNS answer could change (DNS rebinding).
 */
export function guardedLookup(policy: AddressPolicy, resolve = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    vetHost(hostname, policy, resolve).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        if (usable.length === 0) {
          callback(new ForbiddenAddressError(`${hostname} has no IPv${wanted} address`), '', 0);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}
