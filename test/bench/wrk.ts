// Closed-loop load with wrk (C, one thread), when it is installed (`apt-get install wrk`):
// it spends about a quarter of autocannon's CPU per request, and on a 2-core machine the
// load generator's CPU is taken from the system under test. Requests cycle through the
// given bodies; a Lua `done` hook prints the figures as JSON.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoadResult {
  reqPerSec: number;
  total: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export function wrkAvailable(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version exits 1 after printing its version; only a missing binary is ENOENT.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

const SCRIPT = `
local bodies = {}
init = function(args)
  for line in io.lines(args[1]) do
    bodies[#bodies + 1] = wrk.format("POST", args[2], { ["Authorization"] = "Bearer " .. args[3],
      ["Content-Type"] = "application/json" }, line)
  end
end
local n = 0
request = function()
  n = n + 1
  return bodies[(n % #bodies) + 1]
end
local non2xx = 0
response = function(status)
  if status < 200 or status > 299 then non2xx = non2xx + 1 end
end
done = function(summary, latency)
  local e = summary.errors
  io.write(string.format('{"total":%d,"micros":%d,"p50":%d,"p99":%d,"errors":%d,"timeouts":%d,"status":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write, e.timeout, e.status))
end
`;

/** Runs wrk against `url` + `path`; `onStart` gets the child (for CPU accounting). */
export async function runWrk(options: {
  url: string;
  path: string;
  token: string;
  bodies: string[];
  connections: number;
  seconds: number;
  onStart?: (child: ChildProcess) => void;
}): Promise<LoadResult> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-wrk-'));
  try {
    await writeFile(join(dir, 'bodies.ndjson'), `${options.bodies.join('\n')}\n`);
    await writeFile(join(dir, 'load.lua'), SCRIPT);
    const child = spawn(
      'wrk',
      [
        '-t1',
        `-c${options.connections}`,
        `-d${options.seconds}s`,
        '--timeout',
        '10s',
        '-s',
        join(dir, 'load.lua'),
        options.url,
        '--',
        join(dir, 'bodies.ndjson'),
        options.path,
        options.token,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    options.onStart?.(child);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const line = out.trim().split('\n').at(-1) ?? '';
    if (code !== 0 || !line.startsWith('{')) throw new Error(`wrk failed (exit ${code}): ${out}`);
    const r = JSON.parse(line) as Record<string, number>;
    return {
      reqPerSec: Math.round((r['total']! * 1e6) / r['micros']!),
      total: r['total']!,
      p50ms: Math.round(r['p50']! / 100) / 10,
      p99ms: Math.round(r['p99']! / 100) / 10,
      non2xx: r['status']!,
      errors: r['errors']!,
      timeouts: r['timeouts']!,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
