// Package boundaries, checked on every `./run typecheck` (and so in CI):
//   - every workspace package has a tsconfig.json extending tsconfig.base.json, whose project
//     references are exactly the workspace packages its package.json declares (a sub-project of
//     its own, such as the console's app/, may be referenced too, and references only declared
//     packages itself);
//   - no service (services/*: the deployables) declares another service: services compose
//     packages (the one-process system composes the same packages as the four services);
//   - the package graph has no cycle (TypeScript's project references and Turborepo need none);
//   - the root tsconfig.json references every package, so `tsc -b` from the root builds all;
//   - no source file imports a workspace package its package.json does not declare, nor reaches
//     into another package's directory by a relative path;
//   - no import circle between a package's files (type-only imports count: a circle of types
//     is still two files that cannot be read, moved or owned apart);
//   - every table and view the migrations create has an owner (a `-- owner: @skiptrace/x` line
//     before it in its migration file), and a package's sources name only its own tables and
//     the views of itself or of packages it declares: no package reads another's tables.
// The last check is needed besides the compiler: pnpm links only declared packages, and a
// composite project may not compile another project's sources it does not reference (TS6307),
// but a package linked at the root (the root's own devDependencies) resolves from everywhere
// as an external library, which tsc lets through.
//   ./run boundaries          check, exit 1 with one line per problem
//   ./run boundaries --write  write a new package's tsconfig.json, rewrite every package's
//                             references from its package.json, list it in the root tsconfig
//   --root DIR                another workspace (test/infra/boundaries.test.ts)
import { existsSync, readdirSync, readFileSync, writeFileSync, type Dirent } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

export interface WorkspacePackage {
  /** Directory relative to the repository root, e.g. `packages/matching`. */
  dir: string;
  name: string;
  /** Names of the workspace packages its package.json declares (any dependency field). */
  declared: string[];
}

interface TsConfig {
  extends?: string;
  references?: { path: string }[];
  [key: string]: unknown;
}

const rootArg = process.argv.indexOf('--root');
const root = rootArg > 0 ? resolve(process.argv[rootArg + 1]!) : resolve(dirname(fileURLToPath(import.meta.url)), '..');

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The workspace packages named by pnpm-workspace.yaml's `packages:` globs (`dir/*` or `dir`). */
export function listPackages(repo: string): WorkspacePackage[] {
  const yaml = readFileSync(join(repo, 'pnpm-workspace.yaml'), 'utf8');
  const block = /^packages:\n((?:[ \t]+-.*\n)+)/m.exec(yaml)?.[1] ?? '';
  const globs = [...block.matchAll(/-\s*['"]?([^'"\n]+)['"]?/g)].map((m) => m[1]!.trim());
  const dirs = globs.flatMap((glob) => {
    if (!glob.endsWith('/*')) return [glob];
    const parent = glob.slice(0, -2);
    return readdirSync(join(repo, parent), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `${parent}/${e.name}`);
  });
  return dirs
    .filter((dir) => existsSync(join(repo, dir, 'package.json')))
    .sort()
    .map((dir) => {
      const pkg = readJson<Record<string, Record<string, string> | string | undefined>>(
        join(repo, dir, 'package.json'),
      );
      const declared = new Set<string>();
      for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
        const deps = pkg[field];
        if (typeof deps !== 'object') continue;
        for (const [name, range] of Object.entries(deps)) if (range.startsWith('workspace:')) declared.add(name);
      }
      return { dir, name: String(pkg.name), declared: [...declared].sort() };
    });
}

/** A cycle in the declared graph, as package names, or undefined. */
export function findCycle(packages: WorkspacePackage[]): string[] | undefined {
  const byName = new Map(packages.map((p) => [p.name, p]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (name: string): string[] | undefined => {
    if (state.get(name) === 'done') return undefined;
    if (state.get(name) === 'open') return [...path.slice(path.indexOf(name)), name];
    state.set(name, 'open');
    path.push(name);
    for (const dep of byName.get(name)?.declared ?? []) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(name, 'done');
    return undefined;
  };
  for (const p of packages) {
    const cycle = visit(p.name);
    if (cycle) return cycle;
  }
  return undefined;
}

const posix = (path: string) => path.split('\\').join('/');

/** Services declaring services. */
export function checkServiceLayer(packages: WorkspacePackage[]): string[] {
  const services = new Set(packages.filter((p) => p.dir.startsWith('services/')).map((p) => p.name));
  return packages
    .filter((p) => services.has(p.name))
    .flatMap((p) =>
      p.declared
        .filter((d) => services.has(d))
        .map((d) => `${p.dir}/package.json: declares the service ${d}; move what it uses into a package`),
    );
}

const SKIP_DIRS = new Set(['node_modules', '.tsbuild', '.jest', '.turbo', 'dist', 'generated']);
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|\bexport\s*\*\s*from\s*)['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(join(d, e.name));
      } else if (/\.(ts|tsx|mts|cts)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out;
}

/** Import circles among each package's own files (relative imports), one line per circle. */
export function checkCircles(repo: string, packages: WorkspacePackage[]): string[] {
  const graph = new Map<string, string[]>();
  for (const p of packages) {
    for (const file of sourceFiles(resolve(repo, p.dir))) {
      const text = readFileSync(file, 'utf8');
      const targets = [...text.matchAll(IMPORT)]
        .map((m) => m[1]!)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => resolve(dirname(file), spec));
      graph.set(file, targets);
    }
  }
  const problems: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') {
        const circle = [...path.slice(path.indexOf(next)), next].map((f) => posix(relative(repo, f)));
        problems.push(`import circle: ${circle.join(' -> ')}`);
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return problems;
}

/** Imports of undeclared workspace packages, and relative imports out of the package's directory. */
export function checkImports(repo: string, packages: WorkspacePackage[]): string[] {
  const problems: string[] = [];
  const names = new Set(packages.map((p) => p.name));
  const dirs = packages.map((p) => resolve(repo, p.dir));
  for (const p of packages) {
    const own = resolve(repo, p.dir);
    // A package nested in this one's directory (none today) is its own package, not this one's files.
    const nested = dirs.filter((d) => d !== own && d.startsWith(`${own}/`));
    const allowed = new Set([p.name, ...p.declared]);
    for (const file of sourceFiles(own)) {
      if (nested.some((d) => file.startsWith(`${d}/`))) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(IMPORT)) {
        const spec = m[1]!;
        const shown = posix(relative(repo, file));
        if (spec.startsWith('.')) {
          const target = resolve(dirname(file), spec);
          if (target !== own && !target.startsWith(`${own}/`)) {
            problems.push(`${shown}: imports ${spec}, outside ${p.dir} (import the package by name instead)`);
          }
          continue;
        }
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (names.has(name) && !allowed.has(name)) {
          problems.push(`${shown}: imports ${name}, which ${p.dir}/package.json does not declare`);
        }
      }
    }
  }
  return problems;
}

/** Every problem with the packages' tsconfig files, one sentence each; empty when all is well. */
export function checkBoundaries(repo: string, packages: WorkspacePackage[]): string[] {
  const problems: string[] = [];
  const byName = new Map(packages.map((p) => [p.name, p]));
  for (const p of packages) {
    for (const dep of p.declared) {
      if (!byName.has(dep)) problems.push(`${p.dir}: declares ${dep}, which is not a workspace package`);
    }
    const tsconfigPath = join(repo, p.dir, 'tsconfig.json');
    if (!existsSync(tsconfigPath)) {
      problems.push(`${p.dir}: no tsconfig.json (run node scripts/boundaries.ts --write)`);
      continue;
    }
    const tsconfig = readJson<TsConfig>(tsconfigPath);
    if (tsconfig.extends !== posix(relative(join(repo, p.dir), join(repo, 'tsconfig.base.json')))) {
      problems.push(`${p.dir}/tsconfig.json: does not extend the root tsconfig.base.json`);
    }
    const allowed = new Set(p.declared.map((d) => resolve(repo, byName.get(d)?.dir ?? d)));
    const own = resolve(repo, p.dir);
    const referenced = new Set<string>();
    const projects = [{ file: tsconfigPath, config: tsconfig }];
    for (let i = 0; i < projects.length; i++) {
      const { file, config } = projects[i]!;
      for (const ref of config.references ?? []) {
        const target = resolve(dirname(file), ref.path);
        const shown = `${posix(relative(repo, file))}: references ${posix(relative(repo, target))}`;
        if (target.startsWith(`${own}/`)) {
          // A sub-project of this package (e.g. packages/console/app): its references count as this package's.
          if (file !== tsconfigPath) problems.push(`${shown}, a nested sub-project`);
          else
            projects.push({
              file: join(target, 'tsconfig.json'),
              config: readJson<TsConfig>(join(target, 'tsconfig.json')),
            });
        } else if (!allowed.has(target)) {
          problems.push(`${shown}, which its package.json does not declare`);
        } else {
          referenced.add(target);
        }
      }
    }
    for (const dep of p.declared) {
      const target = resolve(repo, byName.get(dep)?.dir ?? dep);
      if (byName.has(dep) && !referenced.has(target)) {
        problems.push(`${p.dir}/tsconfig.json: no reference to ${posix(relative(repo, target))} (declared ${dep})`);
      }
    }
  }
  const cycle = findCycle(packages);
  if (cycle) problems.push(`package dependency cycle: ${cycle.join(' -> ')}`);
  const rootConfig = readJson<TsConfig>(join(repo, 'tsconfig.json'));
  const rootRefs = new Set((rootConfig.references ?? []).map((r) => resolve(repo, r.path)));
  for (const p of packages) {
    if (!rootRefs.has(resolve(repo, p.dir))) problems.push(`tsconfig.json: no reference to ${p.dir}`);
  }
  return problems;
}

/** Rewrites each package's references (and the root's list) from the package.json files. */
export async function writeReferences(repo: string, packages: WorkspacePackage[]): Promise<string[]> {
  const written: string[] = [];
  const byName = new Map(packages.map((p) => [p.name, p]));
  for (const p of packages) {
    const file = join(repo, p.dir, 'tsconfig.json');
    const existing: TsConfig = existsSync(file)
      ? readJson<TsConfig>(file)
      : {
          compilerOptions: { rootDir: '.', outDir: '.tsbuild' },
          include: ['src', 'test', 'bench', 'scripts'],
        };
    const own = resolve(repo, p.dir);
    const nested = (existing.references ?? []).filter((r) => resolve(repo, p.dir, r.path).startsWith(`${own}/`));
    const next: TsConfig = {
      ...existing,
      extends: posix(relative(join(repo, p.dir), join(repo, 'tsconfig.base.json'))),
      references: [
        ...nested,
        ...p.declared
          .filter((d) => byName.has(d))
          .map((d) => ({ path: posix(relative(join(repo, p.dir), join(repo, byName.get(d)!.dir))) })),
      ],
    };
    const { extends: ext, ...rest } = next;
    const ordered = { extends: ext, ...rest };
    if (!existsSync(file) || JSON.stringify(readJson(file)) !== JSON.stringify(ordered)) {
      const options = await prettier.resolveConfig(file);
      writeFileSync(file, await prettier.format(JSON.stringify(ordered), { ...options, filepath: file }));
      written.push(posix(relative(repo, file)));
    }
  }
  const rootFile = join(repo, 'tsconfig.json');
  const rootConfig = readJson<TsConfig>(rootFile);
  const listed = new Set((rootConfig.references ?? []).map((r) => resolve(repo, r.path)));
  const missing = packages.filter((p) => !listed.has(resolve(repo, p.dir)));
  if (missing.length) {
    rootConfig.references = [...(rootConfig.references ?? []), ...missing.map((p) => ({ path: `./${p.dir}` }))];
    const options = await prettier.resolveConfig(rootFile);
    writeFileSync(rootFile, await prettier.format(JSON.stringify(rootConfig), { ...options, filepath: rootFile }));
    written.push('tsconfig.json');
  }
  return written;
}

/** Where the migrations live (packages/storage: both adapters apply them). */
const MIGRATIONS_DIR = 'packages/storage/migrations';
const OWNER_LINE = /^--\s*owner:\s*(\S+)\s*$/;
const CREATE = /\bCREATE\s+(?:OR\s+REPLACE\s+)?(TABLE|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/i;

export interface Relation {
  kind: 'table' | 'view';
  owner: string | undefined;
  file: string;
}

/**
 * The tables and views the migrations create, each with its owner: the last `-- owner:` line
 * above it in its file. A later migration that only alters a relation needs no owner line.
 */
export function readRelations(repo: string): Map<string, Relation> {
  const relations = new Map<string, Relation>();
  const dir = join(repo, MIGRATIONS_DIR);
  if (!existsSync(dir)) return relations;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    let owner: string | undefined;
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const declared = OWNER_LINE.exec(line.trim());
      if (declared) owner = declared[1];
      const created = CREATE.exec(line);
      if (created && !relations.has(created[2]!.toLowerCase()))
        relations.set(created[2]!.toLowerCase(), {
          kind: created[1]!.toLowerCase() as 'table' | 'view',
          owner,
          file: `${MIGRATIONS_DIR}/${file}`,
        });
    }
  }
  return relations;
}

// A relation named in SQL (after FROM, JOIN, INTO, UPDATE, TABLE, ANALYZE, TRUNCATE), or as
// the table argument of the storage helpers that take one by name.
const SQL_RELATION = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE|ANALYZE|TRUNCATE)\s+(?:ONLY\s+)?([a-z_][a-z0-9_]*)\b/g;
const NAMED_RELATION = /\b(?:copyRows|analyzeAfterLoad|idempotencyStore)\(\s*(?:[\w.]+\s*,\s*)?'([a-z_][a-z0-9_]*)'/g;

/** Relations without an owner, owners that are not packages, and sources naming a relation they may not. */
export function checkTableOwners(repo: string, packages: WorkspacePackage[]): string[] {
  const problems: string[] = [];
  const relations = readRelations(repo);
  const names = new Set(packages.map((p) => p.name));
  for (const [name, relation] of relations) {
    if (relation.owner === undefined)
      problems.push(
        `${relation.file}: ${relation.kind} ${name} has no owner (add a line \`-- owner: @skiptrace/<package>\` above it)`,
      );
    else if (!names.has(relation.owner))
      problems.push(
        `${relation.file}: ${relation.kind} ${name} is owned by ${relation.owner}, which is not a workspace package`,
      );
  }
  for (const p of packages) {
    const readable = new Set([p.name, ...p.declared]);
    for (const file of sourceFiles(resolve(repo, p.dir, 'src'))) {
      const text = readFileSync(file, 'utf8');
      const named = new Set([...text.matchAll(SQL_RELATION), ...text.matchAll(NAMED_RELATION)].map((m) => m[1]!));
      for (const name of named) {
        const relation = relations.get(name);
        if (!relation?.owner || relation.owner === p.name) continue;
        if (relation.kind === 'view' && readable.has(relation.owner)) continue;
        problems.push(
          `${posix(relative(repo, file))}: names ${relation.kind} ${name} of ${relation.owner}` +
            (relation.kind === 'table'
              ? ' (use a function or a published view of its owner)'
              : ', which it does not declare'),
        );
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packages = listPackages(root);
  if (process.argv.includes('--write')) {
    const written = await writeReferences(root, packages);
    console.log(written.length ? `wrote ${written.join(', ')}` : 'references are current');
  }
  const problems = [
    ...checkServiceLayer(packages),
    ...checkBoundaries(root, packages),
    ...checkImports(root, packages),
    ...checkCircles(root, packages),
    ...checkTableOwners(root, packages),
  ];
  for (const problem of problems) console.error(problem);
  if (problems.length) process.exit(1);
  console.log(`package boundaries: ${packages.length} packages, references match package.json`);
}
