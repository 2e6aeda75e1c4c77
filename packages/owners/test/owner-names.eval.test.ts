/**
 * The owner-name parser on real recorded owner strings, labelled by hand (test/fixtures/
 * owner-names/README.md has the sources, licences and sampling). Prints, per source, the
 * kind accuracy (the first owner's kind) and persons named (each labelled person — an owner,
 * or the person behind a trust or estate — found with first and last name right), and fails below kind 0.95 or persons named 0.93.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { detectNameOrder, parseOwnerNames } from '../src/index.ts';
import type { NameOrder } from '../src/index.ts';

const KIND_MIN = 0.95;
const PERSONS_MIN = 0.93;

const SOURCES = [
  { file: 'nyc-pluto.tsv', name: 'NYC PLUTO (development)' },
  { file: 'nyc-acris.tsv', name: 'NYC ACRIS parties (development)' },
  { file: 'philadelphia-dev.tsv', name: 'Philadelphia OPA (development)' },
  { file: 'philadelphia-trusts.tsv', name: 'Philadelphia OPA trusts/estates (dev)' },
  { file: 'philadelphia-holdout.tsv', name: 'Philadelphia OPA (held out)' },
] as const;

interface Labelled {
  lines: string[];
  kind: string;
  persons: { first: string; last: string }[];
}

/** Names compared as letters only, upper case: "O'Brien" = OBRIEN, "Mc Donald" = MCDONALD. */
const compact = (name: string | undefined): string => (name ?? '').toUpperCase().replace(/[^A-Z]/g, '');

function load(file: string): Labelled[] {
  const text = readFileSync(new URL(`./fixtures/owner-names/${file}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [owners = '', kind = '', persons = ''] = line.split('\t');
      return {
        lines: owners.split(' | '),
        kind,
        persons: persons
          .split(';')
          .map((p) => p.trim())
          .filter((p) => p !== '')
          .map((p) => {
            const [first = '', last = ''] = p.split('/');
            return { first, last };
          }),
      };
    });
}

interface Figures {
  strings: number;
  kindRight: number;
  persons: number;
  personsNamed: number;
  misses: string[];
}

function evaluate(rows: readonly Labelled[], order?: NameOrder): Figures {
  const figures: Figures = { strings: rows.length, kindRight: 0, persons: 0, personsNamed: 0, misses: [] };
  for (const row of rows) {
    const owners = parseOwnerNames(row.lines, order === undefined ? {} : { order });
    const kind = owners[0]?.kind ?? 'none';
    if (kind === row.kind) figures.kindRight++;
    else figures.misses.push(`kind ${kind} ≠ ${row.kind}: ${row.lines.join(' | ')}`);
    // A person behind a trust or estate counts as named when the trust or estate names them.
    const people = owners.filter((o) => o.kind === 'person' || o.kind === 'trust' || o.kind === 'estate');
    for (const person of row.persons) {
      figures.persons++;
      const found = people.some(
        (o) => compact(o.firstName) === compact(person.first) && compact(o.lastName) === compact(person.last),
      );
      if (found) figures.personsNamed++;
      else {
        const got = people.map((o) => `${o.firstName ?? ''}/${o.lastName ?? ''}`).join('; ');
        figures.misses.push(`person ${person.first}/${person.last} not in [${got}]: ${row.lines.join(' | ')}`);
      }
    }
  }
  return figures;
}

describe('owner names on real recorded strings', () => {
  const results = SOURCES.map((source) => {
    const rows = load(source.file);
    // The same rows read with the order detectNameOrder finds for the whole file (how an import can call it).
    const order = detectNameOrder(rows.map((row) => row.lines));
    return { source, figures: evaluate(rows), order, withOrder: evaluate(rows, order) };
  });

  it('prints the figures per source', () => {
    const lines = results.map(({ source, figures, order, withOrder }) => {
      const kind = figures.kindRight / figures.strings;
      const named = figures.personsNamed / figures.persons;
      const namedWithOrder = withOrder.personsNamed / withOrder.persons;
      return `${source.name.padEnd(34)} strings ${String(figures.strings).padStart(3)}  kind ${kind.toFixed(3)}  persons ${String(figures.persons).padStart(3)}  named ${named.toFixed(3)}  (file order ${order}: named ${namedWithOrder.toFixed(3)})`;
    });
    const misses = results.flatMap(({ source, figures }) => figures.misses.map((m) => `  ${source.file}: ${m}`));
    console.log(['owner names (hand-labelled real strings)', ...lines, 'misses:', ...misses].join('\n'));
    expect(results).toHaveLength(SOURCES.length);
  });

  it.each(SOURCES.map((source) => [source.name, source.file]))(
    '%s: kind ≥ 0.95 and persons named ≥ 0.93',
    (_name, file) => {
      const figures = results.find((r) => r.source.file === file)?.figures;
      expect(figures).toBeDefined();
      if (figures === undefined) return;
      expect(figures.strings).toBeGreaterThanOrEqual(99);
      expect(figures.kindRight / figures.strings).toBeGreaterThanOrEqual(KIND_MIN);
      expect(figures.personsNamed / figures.persons).toBeGreaterThanOrEqual(PERSONS_MIN);
    },
  );
});
