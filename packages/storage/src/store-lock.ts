/**
 * One writer per embedded store: the process that opens PGlite in a data directory holds
 * `<dir>/store.lock` (its pid, host and start time) until it closes the store. PGlite has no
 * locking of its own; a second process on the same files loses writes or corrupts them.
 * A lock whose process is gone (same host, pid not alive) is stale and taken over.
 *
 * The running system also leaves `<dir>/admin.json` (0600: its loopback URL and a token)
 * beside the lock, so an admin tool that finds the store locked can make its change through
 * that system instead (services/standalone admin.router.ts, services/cli store.ts).
 */
import { open, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface StoreLockHolder {
  pid: number;
  host: string;
  /** ISO time the holder took the lock. */
  since: string;
}

/** The lock file of the embedded store kept in dataDir (SKIPTRACE_DATA_DIR). */
export const storeLockPath = (dataDir: string): string => join(dataDir, 'store.lock');

/** Where the running one-process system says how to reach its admin API (0600). */
export const adminEndpointPath = (dataDir: string): string => join(dataDir, 'admin.json');

/** The embedded store is held by another live process (or by this one, opened twice). */
export class StoreLockedError extends Error {
  override name = 'StoreLockedError';
  readonly dataDir: string;
  readonly holder: StoreLockHolder;
  constructor(dataDir: string, holder: StoreLockHolder) {
    super(
      `the embedded store in ${dataDir} is in use by process ${holder.pid} (since ${holder.since}); ` +
        'PGlite allows one process: stop that process first, or make the change through it',
    );
    this.dataDir = dataDir;
    this.holder = holder;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of the store's lock, or undefined when there is none (or it is stale). */
export async function storeLockHolder(dataDir: string): Promise<StoreLockHolder | undefined> {
  let text: string;
  try {
    text = await readFile(storeLockPath(dataDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let holder: Partial<StoreLockHolder>;
  try {
    holder = JSON.parse(text) as Partial<StoreLockHolder>;
  } catch {
    return undefined; // a half-written file of a process that died while writing it
  }
  if (typeof holder.pid !== 'number') return undefined;
  const live = holder.host !== hostname() || alive(holder.pid);
  return live ? { pid: holder.pid, host: holder.host ?? '', since: holder.since ?? '' } : undefined;
}

export interface StoreLock {
  /** Removes the lock file (only while it is still this lock). Idempotent. */
  release(): Promise<void>;
}

/** Takes the store's lock or throws StoreLockedError naming the live holder. */
export async function lockStore(dataDir: string): Promise<StoreLock> {
  const path = storeLockPath(dataDir);
  const mine: StoreLockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const text = JSON.stringify(mine);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await open(path, 'wx', 0o644);
      try {
        await file.writeFile(text);
      } finally {
        await file.close();
      }
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          // Another process may have taken over a lock it judged stale: leave its file alone.
          const now = await readFile(path, 'utf8').catch(() => undefined);
          if (now === text) await unlink(path).catch(() => undefined);
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = await storeLockHolder(dataDir);
    if (holder) throw new StoreLockedError(dataDir, holder);
    await unlink(path).catch(() => undefined); // stale: its process is gone
  }
  throw new Error(`could not lock the embedded store in ${dataDir} (its lock file keeps changing)`);
}
