/**
 * A flat array parameter as PostgreSQL's array literal, the same text node-postgres's own
 * encoder makes (every element double-quoted, `\` and `"` escaped, null and undefined as
 * NULL) but built with one join where it concatenates and escapes element by element: three
 * strings a value, about 0.13 µs. The trace sends arrays of thousands of keys, ids and
 * phone numbers a batch chunk (and the chunk's outcomes by row), where that was several
 * microseconds a row and a steady share of the batch worker's garbage. Anything else than
 * strings, numbers, booleans and nulls (nested arrays, Buffers, Dates, objects) is left to
 * the driver: undefined.
 */
export function arrayLiteral(values: readonly unknown[]): string | undefined {
  let plain = true;
  for (const value of values) {
    const type = typeof value;
    if (type === 'string') {
      if ((value as string).includes('"') || (value as string).includes('\\')) plain = false;
    } else if (value === null || value === undefined) {
      plain = false;
    } else if (type !== 'number' && type !== 'boolean' && type !== 'bigint') {
      return undefined;
    }
  }
  if (values.length === 0) return '{}';
  if (plain) return `{"${values.join('","')}"}`;
  return `{${values.map(element).join(',')}}`;
}

function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text = String(value as string | number | boolean | bigint);
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}
