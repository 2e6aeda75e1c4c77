import { describe, expect, it } from '@jest/globals';
import { FIELDS, resolveColumns } from '@skiptrace/batches/column-rules';
import { DEMO_BATCH_HEADER, demoBatchRows } from '../src/demo-batch.ts';

describe('the demo batch file', () => {
  it('uses vendor column names the server maps to all six Property fields (and no mailing address or apn)', () => {
    const found = resolveColumns(DEMO_BATCH_HEADER, {});
    expect(FIELDS.map((f) => found[f])).toEqual([0, 1, 2, 3, 4, 5, -1, -1, -1, -1, -1]);
  });

  it('spreads its rows over the demo contacts, some without a name and some at no known address', () => {
    const rows = demoBatchRows({ contacts: 5000, seed: 42, rows: 1000 });
    expect(rows).toHaveLength(1000);
    expect(rows.every((r) => r.length === 6 && r[0] !== '' && /^\d{5}/.test(r[3]!))).toBe(true);
    expect(rows.filter((r) => r[4] === '').length).toBe(200);
    expect(rows.filter((r) => r[0]!.includes('Nowhere Ridge')).length).toBe(100);
    expect(demoBatchRows({ contacts: 300, seed: 42, rows: 1000 })).toHaveLength(300);
  });
});
