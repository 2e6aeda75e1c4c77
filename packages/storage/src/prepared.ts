/**
 * Statements the PostgreSQL adapter runs as named prepared statements: parsed and analysed
 * once per connection instead of on every call, and planned once when PostgreSQL finds its
 * generic plan no costlier than the custom ones (plan_cache_mode auto: after five custom
 * plans). On the sync path's small batches that is 40–70 % of a statement's backend CPU
 * (docs/benchmarks-history.md, note 17); a cached plan is rebuilt after an ANALYZE or a DDL change of
 * the tables it reads.
 *
 * Only for a constant text (each one stays prepared on every pooled connection for its
 * life), and only where the generic plan has been measured as good as the custom one at
 * every size the statement is called with: a plan that depends on the parameters' values —
 * an `= ANY($1)` whose array is sometimes 10 keys and sometimes 5,000 — is left unnamed
 * (the people read of find-people.ts ran 3× slower on its generic plan). PGlite ignores it.
 */
const names = new Map<string, string>();

/** Marks `text` as a prepared statement and returns it unchanged: `const X_SQL = prepared(`…`)`. */
export function prepared(text: string): string {
  if (!names.has(text)) names.set(text, `skiptrace_${names.size + 1}`);
  return text;
}

/** The statement's name when `text` was marked by prepared(). */
export const preparedName = (text: string): string | undefined => names.get(text);
