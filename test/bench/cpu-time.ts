// CPU time of the processes that serve a benchmark, read from /proc (Linux only), so a
// run can report where each request's CPU went: the Node process under test, the broker
// and the database backends. Unlike requests/s, CPU per request barely moves when other
// work shares the machine, so it is the figure to compare between code versions.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of one process in ms; 0 once it has gone. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ") ".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

export function pidsOf(command: string): number[] {
  try {
    return execFileSync('pgrep', ['-x', command], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export type PidGroups = Record<string, () => number[] | Promise<number[]>>;

/** Sums CPU ms per named group of processes; call before and after, subtract. */
export async function cpuSnapshot(groups: PidGroups): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, pids] of Object.entries(groups)) {
    out[name] = (await pids()).reduce((sum, pid) => sum + processCpuMs(pid), 0);
  }
  return out;
}

/** CPU ms per request for each group between two snapshots. */
export function cpuPerRequest(before: Record<string, number>, after: Record<string, number>, requests: number) {
  const out: Record<string, number> = {};
  for (const name of Object.keys(after)) {
    out[name] = Math.round((((after[name] ?? 0) - (before[name] ?? 0)) / Math.max(1, requests)) * 1000) / 1000;
  }
  return out;
}
