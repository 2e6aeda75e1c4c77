/**
 * Which IP addresses a webhook may connect to: globally reachable unicast only, judged
 * against the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and its
 * updates) plus multicast. Parsing and prefix matching are ipaddr.js's; this file is only
 * the table and the rules for addresses that carry an IPv4 address inside an IPv6 one.
 *
 * IPv6 is allowed only inside global unicast (2000::/3), so the unspecified, loopback,
 * IPv4-compatible (::/96), discard (100::/64), unique-local, link-local, site-local,
 * multicast and other unassigned space is refused without listing each. Forms that embed
 * an IPv4 address are judged by that address: IPv4-mapped ::ffff:0:0/96, IPv4-translated
 * ::ffff:0:0:0/96 (RFC 2765), well-known NAT64 64:ff9b::/96 (RFC 6052), and 6to4 2002::/16
 * (bits 16–47, RFC 3056). Local-use NAT64 64:ff9b:1::/48 (RFC 8215) and the IETF protocol
 * block 2001::/23, which holds Teredo 2001::/32 (whose client address is obfuscated) and
 * benchmarking, AMT, ORCHID and anycast service prefixes, are refused whole: none of them
 * is a place a webhook receiver lives.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];
const cidrs = (list: string[]): Cidr[] => list.map((text) => ipaddr.parseCIDR(text));

/** IANA IPv4 Special-Purpose Address Registry entries not globally reachable, plus multicast. */
const V4_REFUSED = cidrs([
  '0.0.0.0/8', // "this network" (RFC 791)
  '10.0.0.0/8', // private-use (RFC 1918)
  '100.64.0.0/10', // shared address space, carrier-grade NAT (RFC 6598)
  '127.0.0.0/8', // loopback (RFC 1122)
  '169.254.0.0/16', // link-local, cloud metadata 169.254.169.254 (RFC 3927)
  '172.16.0.0/12', // private-use (RFC 1918)
  '192.0.0.0/24', // IETF protocol assignments, DS-Lite, NAT64 discovery (RFC 6890)
  '192.0.2.0/24', // documentation TEST-NET-1 (RFC 5737)
  '192.88.99.0/24', // deprecated 6to4 relay anycast (RFC 7526)
  '192.168.0.0/16', // private-use (RFC 1918)
  '198.18.0.0/15', // benchmarking (RFC 2544)
  '198.51.100.0/24', // documentation TEST-NET-2 (RFC 5737)
  '203.0.113.0/24', // documentation TEST-NET-3 (RFC 5737)
  '224.0.0.0/4', // multicast (RFC 5771)
  '240.0.0.0/4', // reserved, includes limited broadcast 255.255.255.255 (RFC 1112, RFC 919)
]);

const V6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** IPv6 prefixes whose last 32 bits are an IPv4 address, judged by that address. */
const V6_EMBEDDING_LOW_32 = cidrs(['::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96']);
const V6_6TO4 = ipaddr.parseCIDR('2002::/16');

/** IANA IPv6 Special-Purpose Address Registry entries inside 2000::/3 that are refused. */
const V6_REFUSED = cidrs([
  '2001::/23', // IETF protocol assignments: Teredo, benchmarking, AMT, ORCHID, anycast services
  '2001:db8::/32', // documentation (RFC 3849)
  '3fff::/20', // documentation (RFC 9637)
]);

const within = (address: ipaddr.IPv4 | ipaddr.IPv6, list: Cidr[]) =>
  list.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));

function v4Allowed(address: ipaddr.IPv4): boolean {
  return !within(address, V4_REFUSED);
}

function v6Allowed(address: ipaddr.IPv6): boolean {
  if (within(address, V6_EMBEDDING_LOW_32)) {
    const parts = address.parts;
    return v4Allowed(new ipaddr.IPv4([parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff]));
  }
  if (address.match(V6_6TO4)) {
    const parts = address.parts;
    return v4Allowed(new ipaddr.IPv4([parts[1]! >> 8, parts[1]! & 0xff, parts[2]! >> 8, parts[2]! & 0xff]));
  }
  if (!address.match(V6_GLOBAL_UNICAST)) return false;
  return !within(address, V6_REFUSED);
}

/** The deprecated IPv4-compatible form ::a.b.c.d, which ipaddr.js reads as IPv4-mapped. */
const V4_COMPATIBLE_DOTTED = /^::\d+\.\d+\.\d+\.\d+(%.*)?$/;

/** True when the literal (IPv4, or IPv6 with an optional zone id) is a globally reachable unicast address. */
export function isPublicAddress(literal: string): boolean {
  // Node's parser decides what is an address at all (it is what the socket will dial);
  // ipaddr.js alone would also take inet_aton forms such as 127.1 or 0x7f.0.0.1.
  const family = isIP(literal.split('%')[0] ?? '');
  if (family === 0 || V4_COMPATIBLE_DOTTED.test(literal)) return false;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // parse(), not process(): an IPv4-mapped address must stay IPv6 to meet the IPv6 rules.
    address = ipaddr.parse(literal);
  } catch {
    return false;
  }
  if (address.kind() !== (family === 4 ? 'ipv4' : 'ipv6')) return false;
  return family === 4 ? v4Allowed(address as ipaddr.IPv4) : v6Allowed(address as ipaddr.IPv6);
}
