import { describe, expect, it } from '@jest/globals';
import { createExportSlots } from '../src/export-slots.ts';

describe('export slots (#22 defect 3)', () => {
  it('bounds exports per account and per process; a release frees one slot once', () => {
    const slots = createExportSlots({ perAccount: 2, perProcess: 3 });
    const a1 = slots.take('a');
    slots.take('a');
    expect(() => slots.take('a')).toThrow(
      expect.objectContaining({ kind: 'rate_limited', headers: { 'Retry-After': '5' } }),
    );
    const b1 = slots.take('b');
    expect(() => slots.take('c')).toThrow(/the server already runs 3 exports/);
    a1();
    a1();
    slots.take('c');
    expect(() => slots.take('a')).toThrow(/the server already runs 3 exports/);
    b1();
    slots.take('a');
    expect(() => slots.take('a')).toThrow(/this account already runs 2 exports/);
  });
});
