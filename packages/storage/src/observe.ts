import { SpanKind, withSpan } from '@skiptrace/runtime';

/** Query text kept on a span; statements are parameterised, so no values are in it. */
const MAX_TEXT = 1000;

/** Runs one statement inside a database client span named by its operation (SELECT, UPDATE, ...). */
export function tracedQuery<T>(text: string, run: () => Promise<T>): Promise<T> {
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'SQL';
  return withSpan(
    operation,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'postgresql',
        'db.operation.name': operation,
        'db.query.text': text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text,
      },
    },
    run,
  );
}
