// Package boundaries `./run typecheck` enforces, in a two-package workspace laid out as pnpm
// lays out this one: `tsc -b` rejects an import of a workspace package the importer does not
// declare (pnpm did not link it); scripts/boundaries.ts (run by `./run typecheck` too) rejects
// one that resolves anyway through a link at the root (as the root's @skiptrace/testing does,
// which tsc takes for an external library), a relative import into another package, and a
// tsconfig whose references differ from the package.json, and an import circle between a
// package's files. All pass once the three agree.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { root } from './infra-files.ts';

const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
let dir: string;

function write(path: string, value: unknown): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

function pkg(name: string, deps: Record<string, string>, references: string[]): void {
  write(`packages/${name}/package.json`, {
    name: `@fx/${name}`,
    type: 'module',
    exports: { '.': './src/index.ts' },
    dependencies: deps,
  });
  write(`packages/${name}/tsconfig.json`, {
    extends: '../../tsconfig.base.json',
    compilerOptions: { rootDir: '.', outDir: '.tsbuild' },
    include: ['src'],
    references: references.map((r) => ({ path: `../${r}` })),
  });
}

/** Links node_modules/@fx/b → packages/b under `from` (a package's own, or the root's when hoisted). */
function link(from: string): void {
  mkdirSync(join(dir, from, 'node_modules', '@fx'), { recursive: true });
  symlinkSync(join(dir, 'packages', 'b'), join(dir, from, 'node_modules', '@fx', 'b'));
}

const typecheck = () => spawnSync(process.execPath, [tsc, '-b', join(dir, 'packages', 'a')], { encoding: 'utf8' });
const boundaries = () =>
  spawnSync(process.execPath, [join(root, 'scripts', 'boundaries.ts'), '--root', dir], { encoding: 'utf8' });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'boundaries-'));
  const base = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
  };
  write('tsconfig.base.json', { compilerOptions: { ...base.compilerOptions, types: [] } });
  write('pnpm-workspace.yaml', 'packages:\n  - packages/*\n');
  write('tsconfig.json', { files: [], references: [{ path: './packages/a' }, { path: './packages/b' }] });
  write('packages/b/src/index.ts', 'export const b = 1;\n');
  write('packages/a/src/index.ts', "import { b } from '@fx/b';\nexport const a = b + 1;\n");
  pkg('b', {}, []);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('package boundaries', () => {
  it('an undeclared workspace package found through a link at the root fails the boundaries check', () => {
    pkg('a', {}, []);
    link('.');
    const result = boundaries();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'packages/a/src/index.ts: imports @fx/b, which packages/a/package.json does not declare',
    );
  });

  it('a relative import into another package fails tsc -b (TS6307) and the boundaries check', () => {
    pkg('a', {}, []);
    // (Joined so that the boundaries check does not take this line for an import of its own.)
    write(
      'packages/a/src/index.ts',
      ['import { b } from', "'../../b/src/index.ts';\nexport const a = b + 1;\n"].join(' '),
    );
    const result = typecheck();
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain('error TS6307');
    expect(boundaries().stderr).toContain('packages/a/src/index.ts: imports ../../b/src/index.ts, outside packages/a');
  });

  it('an undeclared workspace package without a link does not resolve (TS2307)', () => {
    pkg('a', {}, []);
    const result = typecheck();
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain('error TS2307');
  });

  it('a declared package the tsconfig does not reference fails the boundaries check', () => {
    pkg('a', { '@fx/b': 'workspace:*' }, []);
    link('packages/a');
    const result = boundaries();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('packages/a/tsconfig.json: no reference to packages/b (declared @fx/b)');
  });

  it('a reference the package.json does not declare fails the boundaries check', () => {
    pkg('a', {}, ['b']);
    const result = boundaries();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('references packages/b, which its package.json does not declare');
  });

  it('declared and referenced: both pass', () => {
    pkg('a', { '@fx/b': 'workspace:*' }, ['b']);
    link('packages/a');
    const result = typecheck();
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
    expect(boundaries().status).toBe(0);
  });

  it('an import circle between two files of a package fails the boundaries check', () => {
    pkg('a', { '@fx/b': 'workspace:*' }, ['b']);
    // (Joined so that the boundaries check does not take these lines for imports of its own.)
    write('packages/a/src/x.ts', ['import type { Y } from', "'./y.ts';\nexport interface X { y?: Y }\n"].join(' '));
    write('packages/a/src/y.ts', ['import type { X } from', "'./x.ts';\nexport interface Y { x?: X }\n"].join(' '));
    const result = boundaries();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('import circle: packages/a/src/x.ts -> packages/a/src/y.ts -> packages/a/src/x.ts');
  });

  it('a service declaring another service fails the boundaries check', () => {
    write('pnpm-workspace.yaml', 'packages:\n  - packages/*\n  - services/*\n');
    write('services/s/package.json', { name: '@fx/s', type: 'module', dependencies: { '@fx/t': 'workspace:*' } });
    write('services/t/package.json', { name: '@fx/t', type: 'module' });
    write('services/s/src/index.ts', 'export const s = 1;\n');
    write('services/t/src/index.ts', 'export const t = 1;\n');
    pkg('a', {}, []);
    const result = boundaries();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('services/s/package.json: declares the service @fx/t');
  });

  describe('tables', () => {
    const migration = (name: string, sql: string) => write(`packages/storage/migrations/${name}`, sql);
    // (Joined so that the boundaries check does not take these lines for SQL of its own.)
    const sql = (...words: string[]) => words.join(' ');

    beforeEach(() => {
      pkg('a', { '@fx/b': 'workspace:*' }, ['b']);
      migration('001_b.sql', sql('-- owner: @fx/b\nCREATE TABLE IF NOT EXISTS', 'widgets (id int);\n'));
      migration(
        '002_views.sql',
        sql('-- owner: @fx/b\nCREATE OR REPLACE VIEW', 'widget_names AS SELECT id FROM widgets;\n'),
      );
    });

    it("a package naming another package's table fails the boundaries check; its published view passes", () => {
      write('packages/a/src/read.ts', sql('export const q = `SELECT id', 'FROM widgets`;\n'));
      const result = boundaries();
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('packages/a/src/read.ts: names table widgets of @fx/b');
      write('packages/a/src/read.ts', sql('export const q = `SELECT id', 'FROM widget_names`;\n'));
      expect(boundaries().status).toBe(0);
    });

    it('a table written by name through a storage helper counts too', () => {
      write('packages/a/src/write.ts', sql('export const w = (db: any) => db.copyRows(', "'widgets', ['id'], []);\n"));
      expect(boundaries().stderr).toContain('packages/a/src/write.ts: names table widgets of @fx/b');
    });

    it("a view of a package not declared fails; the owner's own table passes", () => {
      pkg('a', {}, []);
      write('packages/a/src/index.ts', sql('export const q = `SELECT id', 'FROM widget_names`;\n'));
      write('packages/b/src/index.ts', sql('export const q = `SELECT id', 'FROM widgets`;\n'));
      const result = boundaries();
      expect(result.stderr).toContain(
        'packages/a/src/index.ts: names view widget_names of @fx/b, which it does not declare',
      );
      expect(result.stderr).not.toContain('packages/b/src');
    });

    it('a table without an owner line fails the boundaries check', () => {
      migration('003_orphan.sql', sql('CREATE TABLE', 'orphans (id int);\n'));
      expect(boundaries().stderr).toContain('003_orphan.sql: table orphans has no owner');
    });
  });

  it('a dependency cycle fails the boundaries check', () => {
    pkg('a', { '@fx/b': 'workspace:*' }, ['b']);
    pkg('b', { '@fx/a': 'workspace:*' }, ['a']);
    const result = boundaries();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('package dependency cycle: @fx/a -> @fx/b -> @fx/a');
  });
});

describe('this repository', () => {
  /** The workspace packages a package needs at run time (dependencies, transitively), by name. */
  function runtimeClosure(name: string): Map<string, Record<string, string>> {
    const manifests = new Map<string, Record<string, string>>();
    for (const parent of ['packages', 'services']) {
      for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
        const file = join(root, parent, entry.name, 'package.json');
        if (!entry.isDirectory() || !existsSync(file)) continue;
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name: string; dependencies?: Record<string, string> };
        manifests.set(pkg.name, pkg.dependencies ?? {});
      }
    }
    const seen = new Map<string, Record<string, string>>();
    const visit = (n: string) => {
      if (seen.has(n) || !manifests.has(n)) return;
      seen.set(n, manifests.get(n)!);
      for (const dep of Object.keys(manifests.get(n)!)) visit(dep);
    };
    visit(name);
    return seen;
  }

  it.each(['@skiptrace/gateway', '@skiptrace/gateway-service', '@skiptrace/cli'])(
    '%s does not load oidc-provider, not even through a dependency',
    (name) => {
      const closure = runtimeClosure(name);
      expect(closure.size).toBeGreaterThan(3);
      const loaders = [...closure].filter(([, deps]) => 'oidc-provider' in deps).map(([n]) => n);
      expect(loaders).toEqual([]);
    },
  );
});
