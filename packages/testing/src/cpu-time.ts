// CPU time of the processes that serve a benchmark, read from /proc (Linux only), so a
// run can report where each request's CPU went: the Node process under test, the broker
// and the database backends. Unlike requests/s, CPU per request barely moves when other
// work shares the machine, so it is the figure to compare between code versions.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/**
 * utime + stime of one process in ms; 0 once it has gone. For this very process also
 * cutime + cstime: the children it has waited for, such as a load generator run that
 * ended between two snapshots.
 */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ") ".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const children = pid === process.pid ? Number(fields[13]) + Number(fields[14]) : 0;
    return ((Number(fields[11]) + Number(fields[12]) + children) * 1000) / TICKS_PER_SECOND;
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

/** The processes `pid` started (children, grandchildren…), alive now. */
export function descendantsOf(pid: number): number[] {
  let children: number[];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

export type PidGroups = Record<string, () => number[] | Promise<number[]>>;
export type CpuSnapshot = Record<string, Map<number, number>>;

/** CPU ms of each process of each named group; call before and after, then cpuPerRequest. */
export async function cpuSnapshot(groups: PidGroups): Promise<CpuSnapshot> {
  const out: CpuSnapshot = {};
  for (const [name, pids] of Object.entries(groups)) {
    out[name] = new Map((await pids()).map((pid) => [pid, processCpuMs(pid)]));
  }
  return out;
}

/**
 * CPU ms per request for each group between two snapshots. Only processes alive at the
 * second snapshot count (one started in between counts whole): a process that exited in
 * between (say, a pool connection the import used) would otherwise subtract its lifetime.
 */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number) {
  const out: Record<string, number> = {};
  for (const [name, pids] of Object.entries(after)) {
    let ms = 0;
    for (const [pid, cpu] of pids) ms += cpu - (before[name]?.get(pid) ?? 0);
    out[name] = Math.round((ms / Math.max(1, requests)) * 1000) / 1000;
  }
  out['total'] = Math.round(Object.values(out).reduce((sum, ms) => sum + ms, 0) * 1000) / 1000;
  return out;
}

/** Resident set size of one process in MiB (VmRSS); 0 once it has gone. */
function processRssMiB(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Samples every process of each group every `intervalMs`: keeps, per group, the largest
 * resident set seen in a single process (the limit is per process; PostgreSQL backends
 * count the shared buffers they touched, as `ps` shows them), and adds up CPU time as it
 * is used. Unlike two snapshots, the running sum keeps the CPU of processes that exit in
 * between (a pool closing idle PostgreSQL connections and opening new ones), less at most
 * one interval each. Process lists (a query for PostgreSQL) are refreshed every second.
 */
export function sampleProcesses(groups: PidGroups, intervalMs = 250) {
  const peak: Record<string, number> = {};
  const used: Record<string, number> = Object.fromEntries(Object.keys(groups).map((name) => [name, 0]));
  const last = new Map<number, number>();
  let pids: Record<string, number[]> = {};
  let refreshed = 0;
  let first = true;
  let ticking: Promise<void> | undefined;
  const sample = async () => {
    if (Date.now() - refreshed > 1000) {
      const next: Record<string, number[]> = {};
      for (const [name, list] of Object.entries(groups)) next[name] = await list();
      pids = next;
      refreshed = Date.now();
    }
    for (const [name, list] of Object.entries(pids)) {
      for (const pid of list) {
        peak[name] = Math.max(peak[name] ?? 0, processRssMiB(pid));
        const cpu = processCpuMs(pid);
        // A process alive at the first sample counts from there; one started later counts whole.
        const before = last.get(pid) ?? (first ? cpu : 0);
        if (cpu > 0) {
          used[name]! += Math.max(0, cpu - before);
          last.set(pid, cpu);
        }
      }
    }
    first = false;
  };
  const tick = () => (ticking ??= sample().finally(() => (ticking = undefined)));
  const timer = setInterval(() => void tick().catch(() => undefined), intervalMs);
  void tick().catch(() => undefined);
  return {
    /** CPU ms used by each group since sampling began (lists the processes and samples once more first). */
    async cpuMs(): Promise<Record<string, number>> {
      await ticking?.catch(() => undefined);
      // The groups' processes are listed afresh: one started since the last listing (a new
      // pooled connection's backend) counts too.
      refreshed = 0;
      await tick().catch(() => undefined);
      return { ...used };
    },
    /** Stops sampling; returns the peak MiB per group, rounded. */
    stop(): Record<string, number> {
      clearInterval(timer);
      return Object.fromEntries(Object.entries(peak).map(([name, mib]) => [name, Math.round(mib)]));
    },
  };
}

/** A connection that runs a statement: a pg Client or Pool, or @skiptrace/storage's Database. */
interface Queryable {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The PostgreSQL backends serving `database`, but for the asking connection itself: a PidGroups member. */
export async function databaseBackends(db: Queryable, database: string): Promise<number[]> {
  const { rows } = await db.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
    database,
  ]);
  return (rows as { pid: number }[]).map((r) => r.pid);
}
