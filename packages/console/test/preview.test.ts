import { describe, expect, it } from '@jest/globals';
import { formatOf } from '../app/preview.ts';

describe('file preview', () => {
  // The preview itself is the server's (POST …/batches/preview, the upload's own reader): tested there.
  it('sends each file as the format its name says', () => {
    expect(formatOf(new File([''], 'List.XLSX'))).toBe('xlsx');
    expect(formatOf(new File([''], 'list.jsonl'))).toBe('ndjson');
    expect(formatOf(new File([''], 'list.json'))).toBe('json');
    expect(formatOf(new File([''], 'list.txt'))).toBe('csv');
  });
});
