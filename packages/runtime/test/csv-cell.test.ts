import { describe, expect, it } from '@jest/globals';
import { csvCell, csvPhoneCell } from '../src/csv-cell.ts';

describe('csvCell (OWASP CSV injection)', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ["+cmd|' /C calc'!A0", `"'+cmd|' /C calc'!A0"`],
    ['-2+3+cmd|x', `"'-2+3+cmd|x"`],
    ['@SUM(A1:A2)', `"'@SUM(A1:A2)"`],
    ['\t=1+2', `"'\t=1+2"`],
    ['\r=1+2', `"'\r=1+2"`],
    ['＝1+2', `"'＝1+2"`],
    ['+15550100', `"'+15550100"`],
  ])('neutralises %j', (input, written) => {
    expect(csvCell(input)).toBe(written);
  });

  it('leaves ordinary text, numbers and booleans readable', () => {
    expect(csvCell('Jänet')).toBe('Jänet');
    expect(csvCell('1 Main St, Apt 2')).toBe('"1 Main St, Apt 2"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(-0.5)).toBe('-0.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('writes system E.164 phone numbers as they are, and anything else neutralised', () => {
    expect(csvPhoneCell('+15550100')).toBe('+15550100');
    expect(csvPhoneCell('+1555=0100')).toBe(`"'+1555=0100"`);
    expect(csvPhoneCell(undefined)).toBe('');
  });
});
