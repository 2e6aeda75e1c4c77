// A package's `lint` task (run by Turborepo from the package's directory): ESLint and the
// Prettier check over the package's own files, with the root's configuration and ignore
// files. `--root` checks what belongs to no package instead (scripts/, docs/, deploy/, k8s/,
// examples/, the root's files): the root's `lint:root` task.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
/** Top-level directories that hold workspace packages (each package lints itself). */
const WORKSPACE_PARENTS = new Set(['packages', 'services', 'test']);
const PRETTIER_FILES = new Set(['.js', '.cjs', '.mjs', '.ts', '.json', '.md', '.yaml', '.yml', '.css', '.html']);

let targets = ['.'];
if (process.argv.includes('--root')) {
  process.chdir(root);
  targets = readdirSync(root, { withFileTypes: true })
    .filter((e) => !WORKSPACE_PARENTS.has(e.name) && e.name !== '.git')
    .filter((e) => e.isDirectory() || PRETTIER_FILES.has(extname(e.name)))
    .map((e) => e.name);
}

function run(cmd: string, args: string[]): void {
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const ESLINT_FILES = new Set(['.js', '.cjs', '.mjs', '.ts']);
const linted = targets.filter((t) => t === '.' || !extname(t) || ESLINT_FILES.has(extname(t)));
run(bin('eslint'), ['--max-warnings', '0', '--no-error-on-unmatched-pattern', ...linted]);
run(bin('prettier'), [
  '--check',
  '--log-level',
  'warn',
  '--ignore-path',
  join(root, '.gitignore'),
  '--ignore-path',
  join(root, '.prettierignore'),
  ...targets,
]);
