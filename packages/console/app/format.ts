/** Display formats shared by the pages. */
const integer = new Intl.NumberFormat('en-US');
export const count = (n: number) => integer.format(n);
export const percent = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)} %` : '—');

/** A share 0–1 as a percentage, "—" when there is none. */
export const share = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : `${(value * 100).toFixed(1)} %`;

export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });
export const when = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '—');

/** +15555550123 → (555) 555-0123 for NANP numbers; others as given. */
export function phone(e164: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164;
}

/**
 * When an address or a phone was seen, at the precision the data gives (YYYY, YYYY-MM or
 * YYYY-MM-DD): "2008 – 2019-04", "since 2019-05", "until 2012", "—" without dates.
 */
export function seenSpan(first?: string, last?: string): string {
  if (first && last) return first === last ? first : `${first} – ${last}`;
  if (first) return `since ${first}`;
  if (last) return `until ${last}`;
  return '—';
}
