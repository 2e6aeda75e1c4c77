// The README's configuration table, generated from the services' environment schemas:
// every variable, which processes read it, its default and its meaning (the schema's
// `.describe()`). `node services/standalone/src/config-table.ts --write` rewrites the
// README section; test/infra/config-table.test.ts fails when the README is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { observabilityEnv } from '@skiptrace/runtime';
import { SERVICE_ENVS, standaloneEnv, standaloneOwnEnv } from './config.ts';

export const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
export const START =
  '<!-- config-table:start (generated from the schemas: node services/standalone/src/config-table.ts --write) -->';
export const END = '<!-- config-table:end -->';

type Def = { type: string; defaultValue?: unknown; innerType?: z.ZodType; in?: z.ZodType };

function defaultOf(schema: z.ZodType): string {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  if (def.type === 'default') return `\`${String(def.defaultValue)}\``;
  if (def.type === 'pipe' && def.in) return defaultOf(def.in);
  return '—';
}

interface Row {
  name: string;
  /** Process → its default of this variable. */
  defaults: Map<string, string>;
  meaning: string;
}

/** One row per variable, in the order the services declare them; the one-process mode reads them all. */
export function configRows(): Row[] {
  const rows = new Map<string, Row>();
  for (const [service, schema] of Object.entries(SERVICE_ENVS)) {
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const row = rows.get(name) ?? { name, defaults: new Map(), meaning: field.description ?? '' };
      row.defaults.set(service, defaultOf(field));
      rows.set(name, row);
    }
  }
  for (const [name, field] of Object.entries(standaloneEnv.shape as Record<string, z.ZodType>)) {
    const row = rows.get(name) ?? { name, defaults: new Map(), meaning: field.description ?? '' };
    row.defaults.set('standalone', defaultOf(field));
    if (name in standaloneOwnEnv && !rows.has(name)) row.meaning = field.description ?? '';
    rows.set(name, row);
  }
  // Metrics and tracing: every process reads the same variables through one schema.
  for (const [name, field] of Object.entries(observabilityEnv as Record<string, z.ZodType>)) {
    const row: Row = { name, defaults: new Map(), meaning: field.description ?? '' };
    for (const process of [...Object.keys(SERVICE_ENVS), 'standalone']) row.defaults.set(process, defaultOf(field));
    rows.set(name, row);
  }
  return [...rows.values()];
}

function defaultsText(row: Row): string {
  const byValue = new Map<string, string[]>();
  for (const [process, value] of row.defaults) byValue.set(value, [...(byValue.get(value) ?? []), process]);
  if (byValue.size === 1) return [...byValue.keys()][0]!;
  return [...byValue].map(([value, processes]) => `${value} ${processes.join('/')}`).join(', ');
}

/** The table as Markdown (not yet aligned; Prettier aligns it). */
export function configTable(): string {
  const lines = ['| variable | used by | default | meaning |', '| --- | --- | --- | --- |'];
  for (const row of configRows()) {
    const processes = [...row.defaults.keys()];
    const users = processes.length === 5 ? 'all' : processes.join(', ');
    const meaning = row.meaning.replace(/\|/g, '\\|');
    lines.push(`| \`${row.name}\` | ${users} | ${defaultsText(row)} | ${meaning} |`);
  }
  return lines.join('\n');
}

/** The README with its configuration section replaced by the table, formatted by Prettier. */
export async function readmeWithTable(readme = readFileSync(README, 'utf8')): Promise<string> {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the ${START} … ${END} markers`);
  const next = `${readme.slice(0, start + START.length)}\n\n${configTable()}\n\n${readme.slice(end)}`;
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(README)) ?? {};
  return prettier.format(next, { ...options, parser: 'markdown' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const updated = await readmeWithTable();
  if (process.argv.includes('--write')) writeFileSync(README, updated);
  else process.stdout.write(updated);
}
