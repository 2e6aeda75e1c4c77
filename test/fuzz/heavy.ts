/**
 * Bodies that cost the server work rather than break its parser (#22 items 1, 3, 4, 11):
 * decompression bombs (gzip, deflate and br really compressed), bodies that are compressed
 * honestly, deeply nested JSON, key explosions (one object of thousands of keys; NDJSON
 * whose every line brings new keys), long strings, huge arrays, CSV headers thousands of
 * columns wide. Built once, on first use, and shared by every request that draws one.
 * Slow (trickled) delivery is the sender's (FuzzRequest.trickle).
 */
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';

export interface HeavyBody {
  /** What it is, for the figures and examples. */
  kind: string;
  contentType: string;
  bytes: Buffer;
  encoding?: 'gzip' | 'deflate' | 'br';
}

type Family = 'json' | 'ndjson' | 'csv' | 'form';

const compress = {
  gzip: (b: Buffer) => gzipSync(b, { level: 9 }),
  deflate: (b: Buffer) => deflateSync(b, { level: 9 }),
  // Quality 5 keeps building the 16 MiB bombs under a second; their ratio is still > 1,000.
  br: (b: Buffer) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
} as const;
const CODINGS = Object.keys(compress) as (keyof typeof compress)[];

const BOMB_BYTES = 16 * 1024 * 1024;
const address = '"street_address":"1 Main St","city":"Austin","state":"TX","zip_code":"78701"';

/** The plain bodies of a family, each past one of the limits (or, for the last ones, within them). */
function plainBodies(family: Family): [string, string][] {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const keys = (n: number, prefix = 'k') => Array.from({ length: n }, (_, i) => `"${prefix}${i}":0`).join(',');
  const items = (n: number) => `[${Array(n).fill('0').join(',')}]`;
  if (family === 'json')
    return [
      ['deep 20000', `{${address},"x":${deep(20_000)}}`],
      ['keys 5000', `{${address},${keys(5_000)}}`],
      ['long string 20000', `{${address},"x":"${'a'.repeat(20_000)}"}`],
      ['huge array 20000', `{${address},"x":${items(20_000)}}`],
      ['keys 1000 × strings 40', `{${keys(995).replaceAll(':0', `:"${'s'.repeat(40)}"`)}}`],
      ['array of 1000 addresses', `[${Array(1_000).fill(`{${address}}`).join(',')}]`],
    ];
  if (family === 'ndjson')
    return [
      // The issue's shape: every line brings two new keys (refused past the column limit).
      [
        'ndjson key explosion 300 KB',
        Array.from({ length: 3_000 }, (_, i) => `{${address},"a${i}":1,"b${i}":2}`).join('\n'),
      ],
      ['ndjson deep line', `{${address}}\n{${address},"x":${deep(20_000)}}`],
      ['ndjson keys 5000 line', `{${address},${keys(5_000)}}`],
      ['ndjson long string line', `{${address},"x":"${'a'.repeat(20_000)}"}`],
      ['ndjson huge array line', `{${address},"x":${items(20_000)}}`],
      ['ndjson 200 columns', Array.from({ length: 50 }, () => `{${address},${keys(196, 'c')}}`).join('\n')],
    ];
  if (family === 'csv')
    return [
      ['csv 5000 columns', `${Array.from({ length: 5_000 }, (_, i) => `c${i}`).join(',')}\n1,2,3\n`],
      [
        'csv 200 columns',
        `street_address,city,state,zip_code,${Array.from({ length: 196 }, (_, i) => `c${i}`).join(',')}\n1 Main St,Austin,TX,78701\n`,
      ],
      ['csv long cell', `street_address,city,state,zip_code\n${'a'.repeat(70_000)},Austin,TX,78701\n`],
    ];
  return [
    ['form long value', `grant_type=client_credentials&scope=${'a'.repeat(70_000)}`],
    ['form 5000 fields', Array.from({ length: 5_000 }, (_, i) => `f${i}=1`).join('&')],
  ];
}

/** What a bomb of a family expands to: text the parser accepts as long as it likes. */
function bombText(family: Family): Buffer {
  if (family === 'json') return Buffer.alloc(BOMB_BYTES, ' ');
  if (family === 'form') return Buffer.concat([Buffer.from('scope='), Buffer.alloc(BOMB_BYTES, 'a')]);
  return Buffer.alloc(BOMB_BYTES, '\n'); // blank lines: CSV and NDJSON skip them
}

const CONTENT_TYPE: Record<Family, string> = {
  json: 'application/json',
  ndjson: 'application/x-ndjson',
  csv: 'text/csv',
  form: 'application/x-www-form-urlencoded',
};

const built = new Map<Family, HeavyBody[]>();

/** Every heavy body of a family: each plain one as is and compressed three ways, and three bombs. */
export function heavyBodies(family: Family): HeavyBody[] {
  let bodies = built.get(family);
  if (bodies) return bodies;
  const contentType = CONTENT_TYPE[family];
  bodies = [];
  for (const [kind, text] of plainBodies(family)) {
    const bytes = Buffer.from(text);
    bodies.push({ kind, contentType, bytes });
    for (const coding of CODINGS)
      bodies.push({ kind: `${kind} (${coding})`, contentType, bytes: compress[coding](bytes), encoding: coding });
  }
  const bomb = bombText(family);
  for (const coding of CODINGS)
    bodies.push({ kind: `bomb 16 MiB (${coding})`, contentType, bytes: compress[coding](bomb), encoding: coding });
  built.set(family, bodies);
  return bodies;
}

/** The family of a content type, if it has heavy bodies. */
export function familyOf(contentType: string | undefined): Family | undefined {
  if (!contentType) return undefined;
  if (contentType.startsWith('application/json')) return 'json';
  if (contentType.startsWith('application/x-ndjson')) return 'ndjson';
  if (contentType.startsWith('text/csv')) return 'csv';
  if (contentType.startsWith('application/x-www-form-urlencoded')) return 'form';
  return undefined;
}

/** One heavy body of a family. */
export const heavyBody = (family: Family): fc.Arbitrary<HeavyBody> =>
  fc.integer({ min: 0, max: 1_000 }).map((i) => {
    const bodies = heavyBodies(family);
    return bodies[i % bodies.length]!;
  });

/**
 * How a body is delivered: at once, or trickled — a few bytes at a time with pauses, as a
 * slow or hostile client sends it (the server must read it whole, or refuse it, and stay up).
 */
export interface Trickle {
  chunkBytes: number;
  everyMs: number;
}

export const trickle: fc.Arbitrary<Trickle | undefined> = fc.oneof(
  { weight: 80, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.record({ chunkBytes: fc.integer({ min: 1, max: 64 }), everyMs: fc.integer({ min: 5, max: 50 }) }),
  },
);
