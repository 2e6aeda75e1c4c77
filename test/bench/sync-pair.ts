// The sync benchmark, alternating this checkout with a reference commit in the same minutes,
// so one run says how the two compare on a shared machine (req/s drifts with the machine;
// the ratio within a pair and node CPU per request hold better).
//   node test/bench/sync-pair.ts --ref <commit> [--only <path,...>] [--pairs 3] [--keep]
//     [-- <sync.bench.ts options, e.g. --contacts 200000 --seconds 10 --loadgen autocannon>]
// The reference is checked out into a temporary git worktree (detached) and installed with
// `pnpm install --frozen-lockfile --offline` (falling back to --prefer-offline when the store
// lacks a package of the old lockfile); each side runs its own test/bench/sync.bench.ts.
// --only: the reference is this checkout's HEAD with just those paths taken from --ref
// (e.g. one package), so everything else is equal. This checkout runs as it is on disk,
// uncommitted changes included. Pairs alternate which side goes first. Run it under the
// bench lock: `flock /work/bench.lock node test/bench/sync-pair.ts …`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    ref: { type: 'string' },
    only: { type: 'string' },
    pairs: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
  },
});
if (!values.ref) throw new Error('--ref <commit> is required');
const pairs = Number(values.pairs);
if (!Number.isInteger(pairs) || pairs < 1) throw new Error('--pairs is a positive integer');
const benchArgs = positionals;
const only = values.only?.split(',').filter(Boolean) ?? [];

const git = (args: string[], cwd = process.cwd()) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const root = git(['rev-parse', '--show-toplevel']);
const head = git(['rev-parse', '--short', 'HEAD'], root);
const dirty = git(['status', '--porcelain', '--untracked-files=no'], root) !== '';
const refCommit = git(['rev-parse', '--short', `${values.ref}^{commit}`], root);

const refDir = await mkdtemp(join(tmpdir(), 'sync-pair-ref-'));
await rm(refDir, { recursive: true });
git(['worktree', 'add', '--detach', refDir, only.length > 0 ? head : refCommit], root);
if (only.length > 0) git(['checkout', refCommit, '--', ...only], refDir);
const refLabel = only.length > 0 ? `${head} with ${only.join(', ')} from ${refCommit}` : refCommit;
const currentLabel = `${head}${dirty ? ' + uncommitted changes' : ''}`;

interface Run {
  side: 'ref' | 'current';
  date: string;
  load1: number;
  reqPerSec: number;
  p99ms: number;
  errors: number;
  nodeCpuMs: number;
  postgresCpuMs: number;
  totalCpuMs: number;
}

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} in ${cwd}: exit ${code}`)),
    );
  });
}

async function install(dir: string) {
  const pnpm = ['install', '--frozen-lockfile', '--reporter=silent'];
  try {
    await run('pnpm', [...pnpm, '--offline'], dir);
  } catch {
    console.error('the store lacks a package of the reference lockfile; installing with --prefer-offline');
    await run('pnpm', [...pnpm, '--prefer-offline'], dir);
  }
}

async function bench(side: Run['side']): Promise<Run> {
  const load1 = loadavg()[0]!;
  const out = await run(process.execPath, ['test/bench/sync.bench.ts', ...benchArgs], side === 'ref' ? refDir : root);
  const result = JSON.parse(out.slice(out.indexOf('{'))) as {
    date: string;
    capacity: { reqPerSec: number; p99ms: number; errors: number; non2xx: number };
    cpuMsPerRequest: Record<string, number>;
  };
  const r: Run = {
    side,
    date: result.date,
    load1: Math.round(load1 * 100) / 100,
    reqPerSec: result.capacity.reqPerSec,
    p99ms: result.capacity.p99ms,
    errors: result.capacity.errors + result.capacity.non2xx,
    nodeCpuMs: result.cpuMsPerRequest['node'] ?? NaN,
    postgresCpuMs: result.cpuMsPerRequest['postgres'] ?? NaN,
    totalCpuMs: result.cpuMsPerRequest['total'] ?? NaN,
  };
  console.error(JSON.stringify(r));
  return r;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

try {
  console.error(`reference: ${refLabel} (${refDir}); installing`);
  await install(refDir);
  const results: { ref: Run; current: Run; capacityRatio: number; nodeCpuRatio: number }[] = [];
  for (let i = 0; i < pairs; i++) {
    const order: Run['side'][] = i % 2 === 0 ? ['ref', 'current'] : ['current', 'ref'];
    const runs: Partial<Record<Run['side'], Run>> = {};
    for (const side of order) runs[side] = await bench(side);
    const { ref, current } = runs as Record<Run['side'], Run>;
    results.push({
      ref,
      current,
      capacityRatio: round(current.reqPerSec / ref.reqPerSec),
      nodeCpuRatio: round(current.nodeCpuMs / ref.nodeCpuMs),
    });
  }
  console.log(
    JSON.stringify(
      {
        current: currentLabel,
        reference: refLabel,
        benchArgs,
        pairs: results,
        // current / reference: capacity (req/s) and Node CPU per request, median over pairs.
        medianCapacityRatio: round(median(results.map((r) => r.capacityRatio))),
        medianNodeCpuRatio: round(median(results.map((r) => r.nodeCpuRatio))),
      },
      null,
      2,
    ),
  );
} finally {
  if (values.keep) console.error(`reference worktree kept at ${refDir}`);
  else git(['worktree', 'remove', '--force', refDir], root);
}
