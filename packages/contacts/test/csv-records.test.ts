import { describe, expect, it } from '@jest/globals';
import { csvRecords, MAX_RECORD_CHARS } from '../src/csv-records.ts';
import type { CsvRecord } from '../src/csv-records.ts';
import { textChunks } from '../src/text-chunks.ts';

async function parse(chunks: string[]): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  for await (const records of csvRecords(textChunks(chunks))) out.push(...records);
  return out;
}

/** Every way of cutting text into two chunks must give the same records. */
async function parseAllSplits(text: string): Promise<CsvRecord[]> {
  const whole = await parse([text]);
  for (let cut = 1; cut < text.length; cut++) {
    expect(await parse([text.slice(0, cut), text.slice(cut)])).toEqual(whole);
  }
  return whole;
}

describe('csvRecords', () => {
  it('splits plain lines, LF and CRLF, with 1-based line numbers and blank lines skipped', async () => {
    expect(await parseAllSplits('a,b\r\n1,2\n\n3,4')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2'] },
      { line: 4, fields: ['3', '4'] },
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and newlines, keeping line numbers right', async () => {
    const text = 'h1,h2\n"12 Main St, Apt 4","say ""hi"""\n"two\nlines",x\nlast,"q"\n';
    expect(await parseAllSplits(text)).toEqual([
      { line: 1, fields: ['h1', 'h2'] },
      { line: 2, fields: ['12 Main St, Apt 4', 'say "hi"'] },
      { line: 3, fields: ['two\nlines', 'x'] },
      { line: 5, fields: ['last', 'q'] },
    ]);
  });

  it('treats a quote inside an unquoted field as a literal character', async () => {
    expect(await parse(['a,5" pipe,c\n'])).toEqual([{ line: 1, fields: ['a', '5" pipe', 'c'] }]);
  });

  it('reports text after a closing quote and carries on with the next line', async () => {
    expect(await parse(['"a"b,c\nok,1\n'])).toEqual([
      { line: 1, fields: null, error: 'text after closing quote' },
      { line: 2, fields: ['ok', '1'] },
    ]);
  });

  it('reports an unterminated quote at the end of the input', async () => {
    expect(await parse(['ok,1\n"open,2\n'])).toEqual([
      { line: 1, fields: ['ok', '1'] },
      { line: 2, fields: null, error: 'unterminated quoted field' },
    ]);
  });

  it('gives up on a runaway quote after MAX_RECORD_CHARS and resynchronises', async () => {
    const filler = `${'x'.repeat(1000)}\n`.repeat(Math.ceil(MAX_RECORD_CHARS / 1000) + 10);
    const records = await parse(['"runaway,1\n', filler, 'end,2\n']);
    expect(records[0]).toEqual({ line: 1, fields: null, error: expect.stringContaining('longer than') });
    expect(records.at(-1)?.fields).toEqual(['end', '2']);
  });

  it('decodes multi-byte characters split across byte chunks and drops a BOM', async () => {
    const bytes = Buffer.from('\ufeffname\nPeña\n', 'utf8');
    const split = bytes.indexOf(0xc3) + 1;
    const out: CsvRecord[] = [];
    for await (const records of csvRecords(textChunks([bytes.subarray(0, split), bytes.subarray(split)])))
      out.push(...records);
    expect(out).toEqual([
      { line: 1, fields: ['name'] },
      { line: 2, fields: ['Peña'] },
    ]);
  });
});
