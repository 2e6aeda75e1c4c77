import { describe, expect, it, jest } from '@jest/globals';
import type { LookupAddress } from 'node:dns';
import { isPublicAddress } from '@skiptrace/webhooks';
import { createHttpTransport } from '@skiptrace/webhooks';
import { ForbiddenAddressError, vetHost, type Resolver } from '@skiptrace/webhooks';
import { startReceiver } from './receiver.ts';

const FORBIDDEN_V4 = {
  'this network 0/8': '0.1.2.3',
  unspecified: '0.0.0.0',
  'private 10/8': '10.20.30.40',
  'CGNAT 100.64/10': '100.100.1.1',
  'loopback 127/8': '127.0.0.1',
  'loopback 127.255.255.254': '127.255.255.254',
  'link-local 169.254/16': '169.254.10.10',
  'cloud metadata': '169.254.169.254',
  'private 172.16/12': '172.16.0.1',
  'private 172.31': '172.31.255.255',
  'private 192.168/16': '192.168.1.1',
  'documentation 192.0.2/24': '192.0.2.10',
  'benchmarking 198.18/15': '198.19.0.1',
  'multicast 224/4': '224.0.0.251',
  'reserved 240/4': '240.0.0.1',
  broadcast: '255.255.255.255',
  'IETF protocol assignments 192.0.0/24': '192.0.0.170',
  'documentation 198.51.100/24': '198.51.100.7',
  'documentation 203.0.113/24': '203.0.113.9',
  '6to4 relay anycast 192.88.99/24': '192.88.99.1',
};

const FORBIDDEN_V6 = {
  'loopback ::1': '::1',
  'unspecified ::': '::',
  'unique local fc00::/7': 'fd12:3456:789a::1',
  'unique local fc00': 'fc00::1',
  'link-local fe80::/10': 'fe80::1%eth0',
  'multicast ff00::/8': 'ff02::1',
  'IPv4-mapped loopback (dotted)': '::ffff:127.0.0.1',
  'IPv4-mapped private (hex)': '::ffff:a00:1',
  'IPv4-mapped metadata': '::ffff:169.254.169.254',
  'IPv4-compatible loopback': '::127.0.0.1',
  'NAT64 embedding private': '64:ff9b::10.0.0.1',
  'NAT64 embedding metadata (hex)': '64:ff9b::a9fe:a9fe',
  '6to4 embedding private': '2002:c0a8:0101::1',
  'documentation 2001:db8::/32': '2001:db8::1',
  'documentation 3fff::/20': '3fff:0:1::1',
  // The adversarial run's bypasses: IPv4-translated ::ffff:0:0:0/96 (RFC 2765).
  'IPv4-translated loopback': '::ffff:0:127.0.0.1',
  'IPv4-translated metadata (hex)': '::ffff:0:a9fe:a9fe',
  'IPv4-translated private': '::ffff:0:10.0.0.1',
  'IPv4-mapped CGNAT': '::ffff:100.64.0.1',
  'IPv4-compatible public (deprecated form)': '::8.8.8.8',
  'local-use NAT64 64:ff9b:1::/48': '64:ff9b:1::808:808',
  'NAT64 embedding loopback': '64:ff9b::127.0.0.1',
  '6to4 embedding loopback': '2002:7f00:1::',
  '6to4 embedding metadata': '2002:a9fe:a9fe::1',
  'Teredo 2001::/32': '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  'benchmarking 2001:2::/48': '2001:2::1',
  'discard-only 100::/64': '100::1',
  'site-local fec0::/10': 'fec0::1',
  'segment routing 5f00::/16': '5f00::1',
  'unassigned ::/8 space': '::2:1',
  'full-form loopback': '0:0:0:0:0:0:0:1',
};

const PUBLIC = [
  '1.1.1.1',
  '8.8.8.8',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700:4700::1111',
  '::ffff:8.8.8.8',
  '::ffff:0:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
  '2a00:1450:4001:81b::200e',
];

describe('IP policy', () => {
  it.each(Object.entries(FORBIDDEN_V4))('refuses IPv4 %s (%s)', (_name, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
  it.each(Object.entries(FORBIDDEN_V6))('refuses IPv6 %s (%s)', (_name, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
  it.each(PUBLIC)('allows public %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
  it.each(['not-an-ip', '', '127.1', '0x7f.0.0.1', '1.1.1.1.1', '::ffff:1.1.1.1.1', '[::1]'])(
    'refuses what is not a canonical address literal: %j',
    (text) => {
      expect(isPublicAddress(text)).toBe(false);
    },
  );
});

const fakeDns =
  (records: Record<string, LookupAddress[]>): Resolver =>
  async (host) => {
    const found = records[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };

describe('vetHost', () => {
  const dns = fakeDns({
    'hooks.example.com': [{ address: '93.184.215.14', family: 4 }],
    'internal.example.com': [{ address: '10.0.0.5', family: 4 }],
    'metadata.example.com': [{ address: '169.254.169.254', family: 4 }],
    'mixed.example.com': [
      { address: '93.184.215.14', family: 4 },
      { address: '192.168.0.10', family: 4 },
    ],
    'v6.example.com': [{ address: '::ffff:10.1.1.1', family: 6 }],
  });

  it('accepts a hostname resolving to public addresses', async () => {
    await expect(vetHost('hooks.example.com', false, dns)).resolves.toEqual([{ address: '93.184.215.14', family: 4 }]);
  });
  it.each(['internal.example.com', 'metadata.example.com', 'mixed.example.com', 'v6.example.com'])(
    'refuses %s, which resolves to a private address',
    async (host) => {
      await expect(vetHost(host, false, dns)).rejects.toBeInstanceOf(ForbiddenAddressError);
    },
  );
  it('refuses IP literals, bracketed IPv6 included', async () => {
    await expect(vetHost('127.0.0.1', false, dns)).rejects.toThrow(/not a public address/);
    await expect(vetHost('[::1]', false, dns)).rejects.toThrow(/not a public address/);
  });
  it('lets private targets through only with allowPrivate', async () => {
    await expect(vetHost('internal.example.com', true, dns)).resolves.toHaveLength(1);
  });
  it('admits loopback only, and resolves no name but localhost, under the loopback policy', async () => {
    const resolver = jest.fn(dns);
    await expect(vetHost('127.0.0.1', 'loopback', resolver)).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(vetHost('[::1]', 'loopback', resolver)).resolves.toEqual([{ address: '::1', family: 6 }]);
    await expect(vetHost('localhost', 'loopback', resolver)).resolves.toHaveLength(2);
    for (const host of ['hooks.example.com', 'internal.example.com', '10.0.0.1', '93.184.215.14', 'localhost.example'])
      await expect(vetHost(host, 'loopback', resolver)).rejects.toThrow(/not a loopback address/);
    expect(resolver).not.toHaveBeenCalled();
  });
});

describe('HTTP transport guard (connect time)', () => {
  it('never connects to a loopback receiver, by IP literal or by a name resolving to it', async () => {
    const receiver = await startReceiver();
    const port = new URL(receiver.url()).port;
    const dns = fakeDns({ 'rebind.example.com': [{ address: '127.0.0.1', family: 4 }] });
    const transport = createHttpTransport({ timeoutMs: 2000, allowPrivate: false, resolver: dns });
    try {
      for (const url of [
        `http://127.0.0.1:${port}/x`,
        `http://rebind.example.com:${port}/x`,
        `http://[::ffff:127.0.0.1]:${port}/x`,
        `http://[::ffff:0:127.0.0.1]:${port}/x`,
        `http://[2002:7f00:1::]:${port}/x`,
      ]) {
        await expect(transport.send({ url, headers: {}, body: '{}' })).rejects.toThrow(/not a public address/);
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await transport.close();
      await receiver.close();
    }
  });

  it('dials the vetted address for a resolved name when private targets are allowed', async () => {
    const receiver = await startReceiver();
    const port = new URL(receiver.url()).port;
    const dns = fakeDns({ 'receiver.test': [{ address: '127.0.0.1', family: 4 }] });
    const transport = createHttpTransport({ timeoutMs: 2000, allowPrivate: true, resolver: dns });
    try {
      const res = await transport.send({ url: `http://receiver.test:${port}/plant/webhook`, headers: {}, body: '{}' });
      expect(res.statusCode).toBe(200);
      expect(receiver.received[0]?.headers.host).toBe(`receiver.test:${port}`);
    } finally {
      await transport.close();
      await receiver.close();
    }
  });
});
