import { normalizeSeen, seenEndDay, seenStartDay } from '../src/seen-dates.ts';
import { describe, expect, it } from '@jest/globals';

/** The day a stored date's period starts or ends, as `YYYY-MM-DD`, computed with Date. */
function dayText(stored: string, end: boolean): string {
  if (stored === '') return '';
  const [year, month, day] = stored.split('-').map(Number) as [number, number?, number?];
  if (day !== undefined) return stored;
  const m = month ?? (end ? 12 : 1);
  const d = end ? new Date(Date.UTC(year, m, 0)).getUTCDate() : 1;
  return `${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

describe('seenEndDay / seenStartDay', () => {
  it('give the first and last day of the period a stored date names', () => {
    expect(seenStartDay('2019')).toBe(20190101);
    expect(seenEndDay('2019')).toBe(20191231);
    expect(seenStartDay('2019-02')).toBe(20190201);
    expect(seenEndDay('2019-02')).toBe(20190228);
    expect(seenEndDay('2020-02')).toBe(20200229);
    expect(seenEndDay('1900-02')).toBe(19000228);
    expect(seenEndDay('2000-02')).toBe(20000229);
    expect(seenEndDay('2019-05-14')).toBe(20190514);
    expect(seenStartDay('2019-05-14')).toBe(20190514);
  });

  it("treat '' and anything not in a stored form as older than every date", () => {
    for (const text of ['', '201', 'abcd', '2019/05', '2019-5', '2019-13', '2019-00', '2019-05-1x', '2019-05-140']) {
      expect(seenEndDay(text)).toBe(0);
      expect(seenStartDay(text)).toBe(0);
    }
  });

  it('order every stored form as the text of its day does', () => {
    // Every stored form the import writes (normalizeSeen) over two centuries' edges and leap years.
    const stored = new Set<string>(['']);
    for (const year of [1800, 1899, 1900, 1999, 2000, 2019, 2020, 2023, 2024, 2100, 2200]) {
      stored.add(normalizeSeen(String(year))!);
      for (let month = 1; month <= 12; month++) {
        stored.add(normalizeSeen(`${year}-${month}`)!);
        for (const day of [1, 15, 28, 29, 30, 31]) {
          const text = normalizeSeen(`${year}-${month}-${day}`);
          if (text) stored.add(text);
        }
      }
    }
    const all = [...stored];
    for (const end of [true, false]) {
      const key = end ? seenEndDay : seenStartDay;
      const byNumber = [...all].sort((a, b) => key(a) - key(b) || (a < b ? -1 : a > b ? 1 : 0));
      const byText = [...all].sort((a, b) => {
        const x = dayText(a, end);
        const y = dayText(b, end);
        return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
      });
      expect(byNumber).toEqual(byText);
    }
  });
});
