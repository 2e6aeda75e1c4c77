// The README's configuration table is generated from the services' schemas; this fails
// when a variable, default or description changed without regenerating it
// (node services/standalone/src/config-table.ts --write).
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { configRows, README, readmeWithTable } from '@skiptrace/standalone/config-table';
import { SERVICE_ENVS } from '@skiptrace/standalone';

describe('README configuration table', () => {
  it('is the one generated from the schemas', async () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme).toBe(await readmeWithTable(readme));
  });

  it('lists every variable of every service, each with a meaning', () => {
    const rows = configRows();
    const names = new Set(rows.map((r) => r.name));
    for (const schema of Object.values(SERVICE_ENVS))
      for (const key of Object.keys(schema.shape)) expect(names).toContain(key);
    for (const row of rows)
      expect({ name: row.name, meaning: row.meaning.length > 10 }).toEqual({ name: row.name, meaning: true });
  });
});
