/**
 * The CSV cell encoder of every CSV the system writes (batch exports, demo contact files).
 *
 * CSV injection (OWASP, "CSV Injection"): a spreadsheet opening the file runs a cell that
 * starts with `=`, `+`, `-` or `@` as a formula (`=HYPERLINK(...)`, `+cmd|' /C calc'!A0`),
 * and tab or carriage return can hide such a start. Every text cell starting with one of
 * those (or their full-width forms, which some spreadsheets fold) is written with a
 * leading single quote inside double quotes, so it shows as the text it was and runs
 * nothing: `=1+2` is written `"'=1+2"`.
 *
 * Phone numbers are the one exception, through `csvPhoneCell`: they are system-generated
 * E.164 strings (`+15550100`), checked against that shape, and a `+` followed by digits
 * only is a number, not a formula, so they stay readable and re-importable. A value that is
 * not strictly E.164 goes through `csvCell` like any other.
 */

const NEEDS_QUOTES = /[",\r\n]/;
const E164 = /^\+[1-9]\d{1,14}$/;

/** = + - @ tab CR, and full-width ＝ ＋ － ＠. */
function startsLikeFormula(text: string): boolean {
  const c = text.charCodeAt(0);
  return (
    c === 61 ||
    c === 43 ||
    c === 45 ||
    c === 64 ||
    c === 9 ||
    c === 13 ||
    c === 0xff1d ||
    c === 0xff0b ||
    c === 0xff0d ||
    c === 0xff20
  );
}

/** One CSV field: quoted when needed, spreadsheet formulas neutralised. */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length > 0 && startsLikeFormula(text)) return `"'${text.replace(/"/g, '""')}"`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A system-generated E.164 phone number as is; anything else as `csvCell` writes it. */
export function csvPhoneCell(value: string | null | undefined): string {
  return typeof value === 'string' && E164.test(value) ? value : csvCell(value);
}
