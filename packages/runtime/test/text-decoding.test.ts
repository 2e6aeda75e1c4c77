import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../src/api-error.ts';
import { charsetOf, decodeText } from '../src/text-decoding.ts';

async function text(chunks: Uint8Array[], charset?: string): Promise<string> {
  let out = '';
  for await (const piece of decodeText(chunks, { charset, what: 'the file' })) out += piece;
  return out;
}
const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();
const CSV = 'street_address,first_name\n1 Main St,Jänet\n';

describe('decodeText', () => {
  it('decodes a declared iso-8859-1 body (Jänet, not J�net)', async () => {
    expect(await text([Buffer.from(CSV, 'latin1')], charsetOf('text/csv; charset=ISO-8859-1'))).toBe(CSV);
  });

  it('detects and drops byte-order marks: UTF-8, UTF-16LE, UTF-16BE', async () => {
    expect(await text([Buffer.from(`\ufeff${CSV}`, 'utf8')])).toBe(CSV);
    expect(await text([Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CSV, 'utf16le')])])).toBe(CSV);
    expect(await text([Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(CSV)])])).toBe(CSV);
  });

  it('recognises UTF-16 without a BOM from its NUL bytes, both byte orders', async () => {
    expect(await text([utf16be(CSV)])).toBe(CSV);
    expect(await text([Buffer.from(CSV, 'utf16le')])).toBe(CSV);
  });

  it('joins characters split across chunks, one byte at a time', async () => {
    const bytes = Buffer.from(CSV, 'utf8');
    expect(await text([...bytes].map((b) => Uint8Array.of(b)))).toBe(CSV);
  });

  it('refuses bytes that are not valid in the chosen encoding with 400', async () => {
    const err = await text([Buffer.from(CSV, 'latin1')]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 1000 });
    expect((err as Error).message).toMatch(/^the file is not valid UTF-8 .*declare the charset/);
  });

  it('refuses an unknown charset with 415', async () => {
    const err = await text([Buffer.from(CSV)], 'klingon').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 415, code: 1003 });
  });

  it('reads the charset parameter of a Content-Type', () => {
    expect(charsetOf('text/csv; charset="UTF-16"')).toBe('utf-16');
    expect(charsetOf('text/csv')).toBeUndefined();
    expect(charsetOf(undefined)).toBeUndefined();
  });
});
