import { Readable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { parseColumnMap, resolveColumns } from '../src/columns.ts';
import { csvLine, csvHeader, exportColumns } from '../src/export.ts';
import { validateRow } from '../src/ingest.ts';
import { sourceFor, type Format, type SourceItem } from '../src/sources.ts';

async function read(format: Format, chunks: string[], maxRowBytes = 1000, maxColumns = 200) {
  const source = sourceFor(format, Readable.from(chunks.map((c) => Buffer.from(c))), { maxRowBytes, maxColumns });
  const items: SourceItem[] = [];
  for await (const item of source.items) items.push(item);
  return { columns: source.columns, items };
}

/** Splits text into pieces of n characters, to cross every token boundary. */
const pieces = (text: string, n: number) =>
  Array.from({ length: Math.ceil(text.length / n) }, (_, i) => text.slice(i * n, i * n + n));

describe('JSON array source', () => {
  const body =
    ' [ {"street_address":"1 A St, \\"x\\" ]}","zip_code":78701}, {"city":"Austin","nested":{"a":[1]}} ,7 ,"s"] ';
  it.each([1, 2, 3, 7, 1000])('yields every element when the body arrives in %i-character pieces', async (n) => {
    const { columns, items } = await read('json', pieces(body, n));
    expect(columns).toEqual(['street_address', 'zip_code', 'city', 'nested']);
    expect(items).toEqual([
      { cells: ['1 A St, "x" ]}', 78701] },
      { cells: [undefined, undefined, 'Austin', { a: [1] }] },
      { invalid: 'row must be a JSON object', text: '7' },
      { invalid: 'row must be a JSON object', text: '"s"' },
    ]);
  });
  it('accepts an empty array and refuses what is not one', async () => {
    expect((await read('json', ['[ ]'])).items).toEqual([]);
    await expect(read('json', ['{"a":1}'])).rejects.toMatchObject({ kind: 'invalid_json' });
    await expect(read('json', ['[{"a":1},]'])).rejects.toMatchObject({ kind: 'invalid_json' });
    await expect(read('json', ['[{"a":1}'])).rejects.toMatchObject({ kind: 'invalid_json' });
    await expect(read('json', ['[{"a":1}] x'])).rejects.toMatchObject({ kind: 'invalid_json' });
  });
  it('refuses an element longer than the row limit with 413', async () => {
    await expect(read('json', ['[{"a":"', 'x'.repeat(600), 'y'.repeat(600), '"}]'])).rejects.toMatchObject({
      kind: 'payload_too_large',
    });
  });
});

describe('NDJSON source', () => {
  it('splits lines across chunks and rejects bad lines without stopping', async () => {
    const { columns, items } = await read('ndjson', pieces('{"a":1,"b":"x"}\r\n\nnot json\n[1]\n{"b":"y"}', 4));
    expect(columns).toEqual(['a', 'b']);
    expect(items).toEqual([
      { cells: [1, 'x'] },
      { invalid: 'line is not valid JSON', text: 'not json' },
      { invalid: 'row must be a JSON object', text: '[1]' },
      { cells: [undefined, 'y'] },
    ]);
  });
});

describe('the column limit (#22 defect 3)', () => {
  const refused = {
    kind: 'validation_failed',
    message: expect.stringContaining('at most 3 columns') as unknown,
  };
  it('refuses the first key past the limit, in NDJSON and JSON, however the keys are spread', async () => {
    const lines = ['{"a":1,"b":2}', '{"c":3,"a":4}', '{"a":5}', '{"d":6}'];
    await expect(read('ndjson', [lines.slice(0, 3).join('\n')], 1000, 3)).resolves.toMatchObject({
      columns: ['a', 'b', 'c'],
    });
    await expect(read('ndjson', [lines.join('\n')], 1000, 3)).rejects.toMatchObject(refused);
    await expect(read('json', [`[${lines.join(',')}]`], 1000, 3)).rejects.toMatchObject(refused);
    await expect(read('json', ['[{"a":1,"b":2,"c":3,"d":4}]'], 1000, 3)).rejects.toMatchObject(refused);
  });
  it('refuses a CSV header with more fields than the limit', async () => {
    await expect(read('csv', ['a,b,c\n1,2,3\n'], 1000, 3)).resolves.toMatchObject({ columns: ['a', 'b', 'c'] });
    await expect(read('csv', ['a,b,c,d\n1,2,3,4\n'], 1000, 3)).rejects.toMatchObject(refused);
  });
});

describe('CSV source', () => {
  it('reads the header, quoted fields and a BOM', async () => {
    const { columns, items } = await read('csv', pieces('\ufeffAddress,City\n"1 Main St, Apt 2",Austin\n\nx\n', 5));
    expect(columns).toEqual(['Address', 'City']);
    expect(items).toEqual([{ cells: ['1 Main St, Apt 2', 'Austin'] }, { cells: ['x'] }]);
  });
  it('reads a body chunk larger than a parser piece whole, a surrogate pair across the piece boundary included', async () => {
    // The body is cut into 16 KiB pieces for the parser (PARSE_PIECE): the emoji's first
    // UTF-16 unit is the last of the first piece.
    let text = 'Name\n';
    if ((16 * 1024 - 1 - text.length) % 2 === 1) text += 'aa\n';
    while (text.length < 16 * 1024 - 1) text += 'a\n';
    text += '😀 Lee\nb\n';
    expect(text.charCodeAt(16 * 1024 - 1)).toBe('😀'.charCodeAt(0));
    const { items } = await read('csv', [text], 100);
    expect(items.slice(-2)).toEqual([{ cells: ['😀 Lee'] }, { cells: ['b'] }]);
    expect(items.length).toBe(text.split('\n').length - 2);
  });
  it('refuses malformed CSV with 400', async () => {
    await expect(read('csv', ['a,b\n"unclosed,1\n'])).rejects.toMatchObject({ kind: 'validation_failed' });
  });
});

describe('column mapping and row validation', () => {
  it('maps vendor aliases, and ?map= overrides them', () => {
    const columns = ['Property Address', 'City', 'ST', 'Zip', 'Mail Zip', 'FirstName'];
    expect(resolveColumns(columns, {})).toEqual({
      street_address: 0,
      city: 1,
      state: 2,
      zip_code: 3,
      first_name: 5,
      last_name: -1,
      mailing_street_address: -1,
      mailing_city: -1,
      mailing_state: -1,
      mailing_zip_code: 4,
      apn: -1,
      owner_name: -1,
    });
    expect(resolveColumns(columns, parseColumnMap('zip_code:Mail Zip')).zip_code).toBe(4);
    expect(resolveColumns(columns, parseColumnMap('zip_code=Mail Zip')).zip_code).toBe(4);
    expect(() => parseColumnMap('owner:X')).toThrow(/field=column/);
  });
  it("reads the owner's mailing address and the parcel number (absentee-owner lists)", () => {
    const columns = [
      'Address',
      'City',
      'State',
      'Zip',
      'Mailing Address',
      'Mailing City',
      'Mailing State',
      'Mailing Zip',
      'APN',
    ];
    const resolution = resolveColumns(columns, {});
    expect(
      validateRow(['1 Main', 'Austin', 'TX', '78701', '40 Ridge Rd', 'Austin', 'TX', '78705', '01-22'], resolution),
    ).toEqual({
      property: {
        street_address: '1 Main',
        city: 'Austin',
        state: 'TX',
        zip_code: '78701',
        mailing_address: { street_address: '40 Ridge Rd', city: 'Austin', state: 'TX', zip_code: '78705' },
        apn: '01-22',
      },
    });
    // Blank mailing columns are no mailing address; a partial one names what is missing.
    expect(validateRow(['1 Main', 'Austin', 'TX', '78701', '', '', '', '', ''], resolution)).toEqual({
      property: { street_address: '1 Main', city: 'Austin', state: 'TX', zip_code: '78701' },
    });
    expect(validateRow(['1 Main', 'Austin', 'TX', '78701', '40 Ridge Rd', '', 'TX', '7870', ''], resolution)).toEqual({
      reason: 'mailing_city: missing; mailing_zip_code: must be a ZIP5 or ZIP+4 code',
    });
  });
  it('names every bad field in the reason', () => {
    const resolution = resolveColumns(['street_address', 'city', 'state', 'zip_code'], {});
    expect(validateRow(['1 Main', 'Austin', 'tx', '78701'], resolution)).toEqual({
      property: { street_address: '1 Main', city: 'Austin', state: 'tx', zip_code: '78701' },
    });
    expect(validateRow(['', 'Austin', 'ZZ', '7870'], resolution)).toEqual({
      reason:
        'street_address: missing; state: must be a USPS state code or state name; zip_code: must be a ZIP5 or ZIP+4 code',
    });
  });
});

describe('CSV export lines', () => {
  const person = (first: string, phones: string[], emails: string[] = []) => ({
    first_name: first,
    last_name: 'Roe',
    confidence: 0.9,
    reasons: [],
    phones: phones.map((number) => ({ number, type: 'mobile' as const, dnc: false, litigator: number.endsWith('9') })),
    emails,
  });

  it('keeps the input columns, then five phone groups with their person, the owner facts, confidence, status, error, truncated, total', () => {
    const header = csvHeader(['Address', 'Zip']).trim().split(',');
    expect(header.slice(0, 12)).toEqual([
      'Address',
      'Zip',
      'phone_1',
      'phone_1_type',
      'phone_1_dnc',
      'phone_1_litigator',
      'phone_1_first_name',
      'phone_1_last_name',
      'phone_1_emails',
      'phone_1_owner',
      'phone_1_resident',
      'phone_1_current_address',
    ]);
    expect(header.slice(-9)).toEqual([
      'phone_5_deceased',
      'owners_of_record',
      'mailing_address_used',
      'row',
      'confidence',
      'status',
      'error',
      'truncated',
      'people_total',
    ]);
    expect(header).toHaveLength(2 + 55 + 3 + 5);
    const line = csvLine(
      { kind: 'rejected', row: { row_number: 3, reason: 'zip_code: bad, really', raw: ['1 "A"', 'x'] } },
      2,
    );
    expect(line).toBe(`"1 ""A""",x,${','.repeat(57)}3,,rejected,"zip_code: bad, really",,\n`);
  });

  it('puts each phone beside its own person, best person first, at most five', () => {
    const results = [
      person('Jane', ['+15125550101', '+15125550102'], ['jane@example.com', 'j.roe@example.com']),
      person('John', ['+15125550103', '+15125550104', '+15125550105', '+15125550109']),
    ];
    const line = csvLine(
      {
        kind: 'traced',
        row: {
          row_number: 1,
          status: 'completed',
          error: null,
          results,
          people_total: null,
          owner_facts: null,
          input: ['1 Main St'],
        },
      },
      1,
    );
    const cells = line.trim().split(',');
    expect(cells).toHaveLength(1 + 55 + 3 + 5);
    // Results from before the owner model say neither owner nor resident: blank, not false.
    expect(cells.slice(1, 12)).toEqual([
      '+15125550101',
      'mobile',
      'false',
      'false',
      'Jane',
      'Roe',
      'jane@example.com; j.roe@example.com',
      '',
      '',
      '',
      '',
    ]);
    expect(cells.slice(23, 34)).toEqual([
      '+15125550103',
      'mobile',
      'false',
      'false',
      'John',
      'Roe',
      '',
      '',
      '',
      '',
      '',
    ]);
    expect(cells.slice(45, 56)).toEqual([
      '+15125550105',
      'mobile',
      'false',
      'false',
      'John',
      'Roe',
      '',
      '',
      '',
      '',
      '',
    ]);
    expect(cells.slice(56, 58)).toEqual(['', '']);
    expect(line).not.toContain('+15125550109');
    expect(cells.slice(-5)).toEqual(['0.9', 'completed', '', 'false', '']);
  });

  it('marks a person the people data says died (deceased: true), blank otherwise', () => {
    const results = [
      { ...person('Ann', ['+15125550111']), owner: true, deceased: true },
      person('Bo', ['+15125550112']),
    ];
    const row = {
      row_number: 1,
      status: 'completed',
      error: null,
      results,
      people_total: null,
      owner_facts: null,
      input: ['x'],
    };
    const header = exportColumns(['Address']);
    const cells = csvLine({ kind: 'traced', row }, 1).trim().split(',');
    const at = (column: string) => cells[header.indexOf(column) + 1];
    expect([at('phone_1_owner'), at('phone_1_deceased'), at('phone_2_deceased')]).toEqual(['true', 'true', '']);
  });

  it('says when more people matched than were returned (truncated, people_total)', () => {
    const results = [person('Jane', ['+15125550101'])];
    const row = {
      row_number: 1,
      status: 'completed',
      error: null,
      results,
      people_total: 14,
      owner_facts: null,
      input: ['1 Main St'],
    };
    expect(csvLine({ kind: 'traced', row }, 1).trim().split(',').slice(-5)).toEqual([
      '0.9',
      'completed',
      '',
      'true',
      '14',
    ]);
    const pending = { ...row, status: 'pending', results: [], people_total: null };
    expect(csvLine({ kind: 'traced', row: pending }, 1).split(',').slice(-5)).toEqual(['', 'pending', '', '', '\n']);
  });

  it('flags each phone’s person as owner or resident with their current address; names the owners of record and the mailing address, neutralised', () => {
    const home = { street_address: '1 Main St', city: 'Austin', state: 'TX', zip_code: '78701' };
    const away = { street_address: '9 Elm St, Apt 2', city: 'Dallas', state: 'TX', zip_code: '75201' };
    const results = [
      { ...person('Ann', ['+15125550101']), owner: true, resident: false, current_address: away },
      { ...person('Tia', ['+15125550102']), owner: false, resident: true, current_address: home },
    ];
    const owner_facts = {
      owners_of_record: [
        { kind: 'trust' as const, name: '=Bob Lee Trust', as_recorded: '=BOB LEE TR & LEE ANN' },
        { kind: 'person' as const, name: 'Ann Lee', as_recorded: '=BOB LEE TR & LEE ANN' },
      ],
      mailing_address: { street_address: '@PO Box 12', city: 'Dallas', state: 'TX', zip_code: '75201' },
    };
    const row = {
      row_number: 1,
      status: 'completed',
      error: null,
      results,
      people_total: null,
      owner_facts,
      input: ['x'],
    };
    const line = csvLine({ kind: 'traced', row }, 1);
    expect(line).toContain(',Ann,Roe,,true,false,"9 Elm St, Apt 2, Dallas, TX 75201",');
    expect(line).toContain(',Tia,Roe,,false,true,"1 Main St, Austin, TX 78701",');
    // A name the roll wrote like a formula stays text: the cell starts with the quote, not "=".
    expect(line).toContain(`,"'=Bob Lee Trust; Ann Lee","'@PO Box 12, Dallas, TX 75201",1,0.9,completed,`);
  });

  it("never repeats a caller's column: the export's columns take a shared prefix instead", () => {
    const header = csvHeader(['street_address', 'Phone_1', 'status']).trim().split(',');
    expect(new Set(header.map((h) => h.toLowerCase())).size).toBe(header.length);
    expect(header.slice(0, 5)).toEqual([
      'street_address',
      'Phone_1',
      'status',
      'result_phone_1',
      'result_phone_1_type',
    ]);
    expect(header.slice(-5)).toEqual([
      'result_confidence',
      'result_status',
      'result_error',
      'result_truncated',
      'result_people_total',
    ]);
    // A caller who already has prefixed columns gets the prefix twice.
    const twice = exportColumns(['phone_1', 'result_error']);
    expect(twice[0]).toBe('result_result_phone_1');
    expect(exportColumns(['Address']).at(-1)).toBe('people_total');
  });
});
