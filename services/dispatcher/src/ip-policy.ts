import { isIP } from 'node:net';

/**
 * Which IP addresses a webhook may connect to. Only globally routable unicast is
 * allowed: loopback, private, link-local (cloud metadata 169.254.169.254), CGNAT,
 * multicast, reserved and documentation ranges are refused, in IPv4 and IPv6, and
 * IPv6 forms that embed an IPv4 address (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the embedded address.
 */
type Range = readonly [base: bigint, prefix: number];

const v4 = (text: string): bigint => text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);

const V4_FORBIDDEN: Range[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast 255.255.255.255
].map(([base, prefix]) => [v4(base as string), prefix as number] as const);

/** Parses an IPv6 literal (with optional zone id and embedded dotted quad) to 128 bits. */
export function parseIpv6(text: string): bigint {
  const address = text.split('%')[0] ?? '';
  let head = address;
  let tailV4: bigint | undefined;
  const lastColon = address.lastIndexOf(':');
  if (address.includes('.', lastColon)) {
    tailV4 = v4(address.slice(lastColon + 1));
    head = address.slice(0, lastColon + 1) + '0:0';
  }
  const [left = '', right] = head.split('::');
  const leftParts = left === '' ? [] : left.split(':');
  const rightParts = right === undefined || right === '' ? [] : right.split(':');
  const fill = right === undefined ? 0 : 8 - leftParts.length - rightParts.length;
  const groups = [...leftParts, ...Array<string>(fill).fill('0'), ...rightParts];
  let value = groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
  if (tailV4 !== undefined) value = (value & ~0xffffffffn) | tailV4;
  return value;
}

const v6 = (text: string) => parseIpv6(text);
const inRange = (value: bigint, bits: number, [base, prefix]: Range) =>
  value >> BigInt(bits - prefix) === base >> BigInt(bits - prefix);

const V6_FORBIDDEN: Range[] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo (embeds an obfuscated IPv4 address)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
].map(([base, prefix]) => [v6(base as string), prefix as number] as const);

/** IPv6 prefixes whose low 32 bits (or bits 80..112 for 6to4) are an IPv4 address. */
const V4_MAPPED: Range = [v6('::ffff:0:0'), 96];
const V4_COMPATIBLE: Range = [0n, 96];
const NAT64: Range = [v6('64:ff9b::'), 96];
const SIX_TO_FOUR: Range = [v6('2002::'), 16];

function v4Allowed(value: bigint): boolean {
  return !V4_FORBIDDEN.some((range) => inRange(value, 32, range));
}

function v6Allowed(value: bigint): boolean {
  if (value === 0n || value === 1n) return false;
  if (inRange(value, 128, V4_MAPPED) || inRange(value, 128, V4_COMPATIBLE) || inRange(value, 128, NAT64))
    return v4Allowed(value & 0xffffffffn);
  if (inRange(value, 128, SIX_TO_FOUR)) return v4Allowed((value >> 80n) & 0xffffffffn);
  return !V6_FORBIDDEN.some((range) => inRange(value, 128, range));
}

/** True when the literal is a publicly routable unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address.split('%')[0] ?? '');
  if (family === 4) return v4Allowed(v4(address));
  if (family === 6) return v6Allowed(parseIpv6(address));
  return false;
}
