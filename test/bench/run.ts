/**
 * `./run bench <name> [options]`: runs the benchmark `<name>.bench.ts` found under
 * test/bench/ or a package's or service's bench/ folder, with its options; without a name,
 * lists them. Installs wrk (Debian's package, scripts/ensure-apt.sh) first when it can: the
 * sync benches use it as their load generator and for their bare-Express reference.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const dirs = [
  'test/bench',
  ...['packages', 'services'].flatMap((top) =>
    readdirSync(join(root, top))
      .map((name) => join(top, name, 'bench'))
      .filter((dir) => existsSync(join(root, dir))),
  ),
];
const benches = new Map<string, string>();
for (const dir of dirs) {
  for (const file of readdirSync(join(root, dir))) {
    if (file.endsWith('.bench.ts')) benches.set(file.slice(0, -'.bench.ts'.length), join(dir, file));
  }
}
const [name, ...args] = process.argv.slice(2);
const file = name === undefined ? undefined : benches.get(name);
if (file === undefined) {
  if (name !== undefined) console.error(`no benchmark named ${name}`);
  console.error("usage: ./run bench <name> [options]; the options are in each file's header\n");
  for (const [bench, path] of [...benches].sort()) console.error(`  ${bench.padEnd(16)} ${path}`);
  process.exit(name === undefined ? 0 : 2);
}
if (
  spawnSync('bash', [join(root, 'scripts/ensure-apt.sh'), '/usr/bin/wrk', 'wrk'], { stdio: 'inherit' }).status !== 0
) {
  console.error(
    'bench: wrk is not installed; load generators fall back to autocannon, without the bare-Express reference',
  );
}
const result = spawnSync(process.execPath, [join(root, file), ...args], { stdio: 'inherit', cwd: root });
process.exit(result.status ?? 1);
