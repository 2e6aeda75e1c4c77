import { readFileSync } from 'node:fs';
import type { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The variable names a schema declares (looking through .transform()/.pipe() wrappers). */
function declaredKeys(schema: z.ZodType): Set<string> {
  const s = schema as unknown as { shape?: Record<string, unknown>; def?: { in?: z.ZodType } };
  if (s.shape) return new Set(Object.keys(s.shape));
  if (s.def?.in) return declaredKeys(s.def.in);
  return new Set();
}

/**
 * Parses environment variables once against a Zod schema and fails fast with every
 * problem named. A variable `X_FILE` (for secrets mounted as files) supplies `X` when
 * `X` itself is unset; the file's trailing newline is dropped.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const merged: Record<string, string | undefined> = { ...env };
  const keys = declaredKeys(schema);
  for (const [key, value] of Object.entries(env)) {
    if (!key.endsWith('_FILE') || value === undefined || value === '') continue;
    const target = key.slice(0, -'_FILE'.length);
    if (!keys.has(target)) continue; // someone else's *_FILE variable
    if (merged[target] !== undefined && merged[target] !== '') continue;
    try {
      merged[target] = readFileSync(value, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      throw new ConfigError(`${key}: cannot read ${value} (${(err as Error).message})`);
    }
  }
  // An empty variable means "unset", as in most shells' `X= cmd`.
  for (const key of Object.keys(merged)) if (merged[key] === '') delete merged[key];
  const parsed = schema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
