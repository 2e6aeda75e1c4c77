import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../src/api-error.ts';
import { charsetOf, decodeText, detectEncoding, type EncodingChoice } from '../src/text-decoding.ts';

async function text(chunks: Uint8Array[], charset?: string, chosen?: EncodingChoice[]): Promise<string> {
  let out = '';
  for await (const piece of decodeText(chunks, { charset, what: 'the file', onEncoding: (c) => chosen?.push(c) }))
    out += piece;
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

  it('detects Windows-1252 / ISO-8859-1 when nothing declares it, and says so', async () => {
    const chosen: EncodingChoice[] = [];
    const accents = 'street_address,first_name\n1 Main St,José\n2 Elm St,Renée Côté\n3 Oak St,Zoë Müller\n';
    expect(await text([Buffer.from(accents, 'latin1')], undefined, chosen)).toBe(accents);
    expect(chosen).toEqual([{ encoding: 'windows-1252', source: 'detected' }]);
    // Byte by byte, and with the first accent far into the file: the same answer.
    const long = `${'a,b\n'.repeat(5000)}${accents}`;
    expect(await text([...Buffer.from(long, 'latin1')].map((b) => Uint8Array.of(b)))).toBe(long);
    // ASCII chunks of 64 KiB, then the first accent in the middle of a later chunk.
    const ascii = 'a,b\n'.repeat(16_384);
    const tail = `x,${'y'.repeat(100)}\n${accents}`;
    expect(await text([Buffer.from(ascii), Buffer.from(ascii), Buffer.from(tail, 'latin1')])).toBe(
      ascii + ascii + tail,
    );
    // Curly quotes and the euro sign are Windows-1252's own (0x80–0x9F).
    expect(await text([Buffer.from([0x93, 0x41, 0x94, 0x2c, 0x80])])).toBe('\u201cA\u201d,\u20ac');
  });

  it('reads UTF-8 as UTF-8 and plain ASCII as UTF-8', async () => {
    const chosen: EncodingChoice[] = [];
    expect(await text([Buffer.from(CSV, 'utf8')], undefined, chosen)).toBe(CSV);
    expect(await text([Buffer.from('a,b\n1,2\n')], undefined, chosen)).toBe('a,b\n1,2\n');
    expect(chosen).toEqual([
      { encoding: 'utf-8', source: 'detected' },
      { encoding: 'utf-8', source: 'ascii' },
    ]);
    expect(detectEncoding(Buffer.from('Jänet', 'utf8'))).toBe('utf-8');
    expect(detectEncoding(Buffer.from('Jänet Müller-Peña', 'latin1'))).toBe('windows-1252');
  });

  it('refuses bytes that are not valid in the chosen encoding with 400', async () => {
    const err = await text([Buffer.from(CSV, 'latin1')], 'utf-8').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 1000 });
    expect((err as Error).message).toMatch(/^the file is not valid UTF-8 .*declare the charset/);
    // UTF-8 for the first 64 KiB after the first accent, then a Windows-1252 byte: refused, not garbled.
    const mixed = Buffer.concat([Buffer.from(`Jänet${'x'.repeat(70_000)}`, 'utf8'), Buffer.from([0xe9])]);
    await expect(text([mixed])).rejects.toMatchObject({ status: 400 });
  });

  it('refuses an unknown charset with 415', async () => {
    const err = await text([Buffer.from(CSV)], 'klingon').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 415, code: 1003 });
  });

  it('refuses a binary file with 415 naming what it is, even with a charset declared or in small chunks', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    const xls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(200)]);
    const pdf = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n');
    const cases: [Buffer[], string | undefined, RegExp][] = [
      [[zip], undefined, /^the file is a ZIP archive \(an Excel \.xlsx workbook is one\), not text .*\.xlsx/],
      [[...zip.subarray(0, 80)].map((b) => Buffer.from([b])), 'utf-8', /ZIP archive/],
      [[xls], undefined, /legacy Excel 97–2003 workbook \(\.xls\)/],
      [[pdf], undefined, /a PDF document/],
      [[Buffer.from([0x1f, 0x8b, 8, 0, 0, 0])], undefined, /gzip-compressed.*Content-Encoding: gzip/],
    ];
    for (const [chunks, charset, message] of cases) {
      const err = await text(chunks, charset).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 415, code: 1003, message: expect.stringMatching(message) });
    }
    // Text that merely starts with the same letters is text.
    expect(await text([Buffer.from('PK,street_address\n1,1 Main St\n')])).toBe('PK,street_address\n1,1 Main St\n');
  });

  it('reads the charset parameter of a Content-Type', () => {
    expect(charsetOf('text/csv; charset="UTF-16"')).toBe('utf-16');
    expect(charsetOf('text/csv')).toBeUndefined();
    expect(charsetOf(undefined)).toBeUndefined();
  });
});
