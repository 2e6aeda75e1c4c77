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
 * Resolves hostname (every A/AAAA record) and returns the addresses that may be dialled.
 * Refuses the whole host when any record is forbidden, so a name that mixes a public
 * and a private record cannot be used to reach the private one. allowPrivate skips
 * the policy (tests, one-process demo, deliberately internal deployments).
 */
export async function vetHost(hostname: string, allowPrivate: boolean, resolve = systemResolver) {
  const host = bareHost(hostname);
  const family = isIP(host);
  const addresses: LookupAddress[] = family ? [{ address: host, family }] : await resolve(host);
  if (addresses.length === 0) throw new ForbiddenAddressError(`${host} does not resolve`);
  if (!allowPrivate) {
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
export function guardedLookup(allowPrivate: boolean, resolve = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    vetHost(hostname, allowPrivate, resolve).then(
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
