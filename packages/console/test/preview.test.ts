import { describe, expect, it } from '@jest/globals';
import { jsonArrayHead, parseCsv, previewFile } from '../app/preview.ts';

describe('file preview', () => {
  it('parses quoted CSV fields, doubled quotes, CRLF and drops a cut-off last record', () => {
    const text = 'Address,City\r\n"1 Main St, Apt 2","Say ""hi"""\r\n2 Oak Ave,Austin\r\n3 Elm';
    expect(parseCsv(text, 10)).toEqual([
      ['Address', 'City'],
      ['1 Main St, Apt 2', 'Say "hi"'],
      ['2 Oak Ave', 'Austin'],
    ]);
    expect(parseCsv(text, 10, true).at(-1)).toEqual(['3 Elm']);
    expect(parseCsv(text, 2)).toHaveLength(2);
  });

  it('finds the first objects of a JSON array without reading to its end', () => {
    const text = '[{"a":"x}","b":[1,{"c":2}]}, {"a":"y"}, {"a":';
    expect(jsonArrayHead(text, 5)).toEqual([{ a: 'x}', b: [1, { c: 2 }] }, { a: 'y' }]);
  });

  it('previews CSV, NDJSON and JSON files with the columns in order of first appearance', async () => {
    const csv = await previewFile(new File(['\uFEFFZip,Address\n73102,4483 Bridge Ave\n'], 'list.csv'));
    expect(csv).toEqual({ format: 'csv', columns: ['Zip', 'Address'], rows: [['73102', '4483 Bridge Ave']] });
    const ndjson = await previewFile(new File(['{"zip":"1"}\n{"zip":"2","city":"A"}\n'], 'list.ndjson'));
    expect(ndjson).toEqual({
      format: 'ndjson',
      columns: ['zip', 'city'],
      rows: [
        ['1', ''],
        ['2', 'A'],
      ],
    });
    const json = await previewFile(new File(['[{"zip":1,"st":null}]'], 'list.json'));
    expect(json).toEqual({ format: 'json', columns: ['zip', 'st'], rows: [['1', '']] });
    await expect(previewFile(new File(['{"zip":1}'], 'list.json'))).rejects.toThrow('array of objects');
    await expect(previewFile(new File(['{"zip":1}\nnot json\n'], 'x.jsonl'))).rejects.toThrow('Line 2 is not JSON');
  });
});
