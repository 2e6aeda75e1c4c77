// A package's `test` task (run by Turborepo from the package's directory): its unit tests as
// a Jest project of their own, rooted at the package (jest.config.js narrows its `unit`
// project to JEST_PACKAGE). The report goes to .jest/unit.json, a cached output that
// scripts/test.ts adds up. Extra arguments go to Jest.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.cwd();
mkdirSync(join(dir, '.jest'), { recursive: true });
const result = spawnSync(
  process.execPath,
  [
    '--experimental-vm-modules',
    join(root, 'node_modules/jest/bin/jest.js'),
    '--config',
    join(root, 'jest.config.js'),
    '--selectProjects',
    'unit',
    '--ci',
    '--forceExit',
    '--json',
    `--outputFile=${join(dir, '.jest', 'unit.json')}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', env: { ...process.env, JEST_PACKAGE: dir } },
);
process.exit(result.status ?? 1);
