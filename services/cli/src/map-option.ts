/**
 * `--map field=Header,…`: one syntax for every command that maps a file's columns (`import`,
 * `import-properties`, `batch submit`). Each pair names a field, then the file's header; the
 * first `=` splits it, so a header may hold `=` or `:`. The older `field:Header` (the first
 * `batch submit`) is still read, with a deprecation warning on stderr.
 */
import { optionalString, UsageError, type Options, type Values } from './command.ts';

/** The option's declaration, the same in every command's help. */
export const MAP_OPTION: Options = {
  map: {
    type: 'string',
    value: 'FIELD=Header,…',
    description: 'map columns to fields, e.g. street_address=Address,zip_code=Zip (field:Header: deprecated)',
  },
};

/** The pairs of `--map`, in order; undefined without the option. */
export function mapPairs(
  values: Values,
  stderr: NodeJS.WritableStream = process.stderr,
): [string, string][] | undefined {
  const text = optionalString(values, 'map');
  if (text === undefined) return undefined;
  return text.split(',').map((pair): [string, string] => {
    const eq = pair.indexOf('=');
    const colon = pair.indexOf(':');
    let split = eq;
    if (eq <= 0 || (colon > 0 && colon < eq)) {
      if (colon <= 0) throw new UsageError(`--map: expected field=Header, got "${pair}"`);
      stderr.write(`warning: --map ${pair}: field:Header is deprecated; write field=Header\n`);
      split = colon;
    }
    const field = pair.slice(0, split).trim();
    const header = pair.slice(split + 1).trim();
    if (!field || !header) throw new UsageError(`--map: expected field=Header, got "${pair}"`);
    return [field, header];
  });
}

/** `--map` as the API's `map` query: `field=Header,…`. */
export function mapQuery(values: Values, stderr?: NodeJS.WritableStream): string | undefined {
  return mapPairs(values, stderr)
    ?.map(([field, header]) => `${field}=${header}`)
    .join(',');
}

/** `--map` as the importers' map: field → header. */
export function mapRecord(values: Values, stderr?: NodeJS.WritableStream): Record<string, string> | undefined {
  const pairs = mapPairs(values, stderr);
  return pairs && Object.fromEntries(pairs);
}
