/**
 * The owner model's dates (when a person was seen at an address, when a phone was seen):
 * kept at the precision the source gives — `YYYY`, `YYYY-MM` or `YYYY-MM-DD` — and
 * compared as the first day (first_seen) or the last day (last_seen) of the period they
 * name, so "2019" as a last_seen is later than "2019-05".
 */
import { BoundedMemo, memoized } from '@skiptrace/matching';

/** A date as a source writes it: ISO (2019, 2019-05, 2019-05-14, 2019/05/14), US (05/14/2019, 5/2019) or 20190514. */
const ISO = /^(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?:[T ].*)?$/;
const US = /^(\d{1,2})[-/.](?:(\d{1,2})[-/.])?(\d{4})$/;
const COMPACT = /^(\d{4})(\d{2})(\d{2})?$/;

const pad = (n: number): string => String(n).padStart(2, '0');

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in the month (1–12) of the year. */
function daysIn(year: number, month: number): number {
  return month === 2 && leap(year) ? 29 : MONTH_DAYS[month - 1]!;
}

function build(year: number, month: number | undefined, day: number | undefined): string | null {
  if (year < 1800 || year > 2200) return null;
  if (month === undefined) return String(year);
  if (month < 1 || month > 12) return null;
  if (day === undefined) return `${year}-${pad(month)}`;
  if (day < 1 || day > daysIn(year, month)) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s));

/**
 * The date in its stored form (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`), '' for an empty value,
 * or null when it cannot be read as a date.
 */
export function normalizeSeen(text: string): string | null {
  return memoized(seenMemo, text, parseSeen);
}

/**
 * Dates repeat across a file's rows (years, months, a few thousand days), so each distinct
 * spelling is read once (bounded: BoundedMemo).
 */
const seenMemo = new BoundedMemo<string | null>(10_000);

function parseSeen(text: string): string | null {
  const value = text.trim();
  if (value === '') return '';
  let m = ISO.exec(value);
  if (m) return build(Number(m[1]), num(m[2]), num(m[3]));
  m = US.exec(value);
  if (m)
    return m[2] === undefined
      ? build(Number(m[3]), Number(m[1]), undefined)
      : build(Number(m[3]), Number(m[1]), Number(m[2]));
  m = COMPACT.exec(value);
  if (m) return build(Number(m[1]), Number(m[2]), num(m[3]));
  return null;
}

const endMemo = new BoundedMemo<number>(10_000);

/** seenEndDay of the date as written (unreadable or empty: 0), memoised: for ordering a person's rows by last_seen. */
export function seenEndOf(text: string): number {
  return memoized(endMemo, text, (written) => seenEndDay(normalizeSeen(written) ?? ''));
}

/** The digits of `stored` from `at` to `at + n` as a number, or -1 when one is not a digit. */
function digits(stored: string, at: number, n: number): number {
  let value = 0;
  for (let i = at; i < at + n; i++) {
    const d = stored.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * A stored date as the number YYYYMMDD of the first (`end` false) or last day it can mean;
 * 0 for '' and for anything not in a stored form. Orders as the `YYYY-MM-DD` text of that
 * day would (a '' is older than any date) without building a string: for the
 * trace's comparators, where those strings were 7 % of a batch worker's allocations
 * (docs/benchmarks-history.md, note 18).
 */
function seenDay(stored: string, end: boolean): number {
  if (stored.length < 4) return 0;
  const year = digits(stored, 0, 4);
  if (year < 0) return 0;
  if (stored.length === 4) return year * 10_000 + (end ? 1231 : 101);
  if (stored.charCodeAt(4) !== 45 /* - */) return 0;
  const month = digits(stored, 5, 2);
  if (month < 1 || month > 12) return 0;
  if (stored.length === 7) return year * 10_000 + month * 100 + (end ? daysIn(year, month) : 1);
  if (stored.length !== 10 || stored.charCodeAt(7) !== 45) return 0;
  const day = digits(stored, 8, 2);
  return day < 0 ? 0 : year * 10_000 + month * 100 + day;
}

/** The last day a stored date can mean, as YYYYMMDD (0: '' or unreadable): for ordering last_seen. */
export const seenEndDay = (stored: string): number => seenDay(stored, true);

/** The first day a stored date can mean, as YYYYMMDD (0: '' or unreadable): for ordering first_seen. */
export const seenStartDay = (stored: string): number => seenDay(stored, false);
