/**
 * The one-process system's batch chunk worker as a child process (SKIPTRACE_BATCH_WORKER=
 * process): batch-worker.process.ts, forked with this process's environment. A chunk of a
 * batch is hundreds of rows of matching and a bulk write; on the main event loop and pool it
 * delayed synchronous requests by up to seconds while a large batch ran, and its garbage
 * grew the main process's heap. The child is started after the main process migrated the
 * store, restarted when it exits unexpectedly (its unacknowledged chunk jobs go back to the
 * queue, so no accepted work is lost), stopped by the ordered shutdown, and its metrics are
 * served by the main process's GET /metrics together with the main process's own.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { addMetricsPeer, type Logger, type MetricsSnapshot } from '@skiptrace/runtime';

/** Child → main. */
export type BatchWorkerMessage = { type: 'ready' } | { type: 'metrics'; id: number; metrics: MetricsSnapshot };
/** Main → child. */
export type BatchWorkerRequest = { type: 'metrics'; id: number };

export interface BatchWorkerProcess {
  /** Forks the child and resolves once it consumes chunk jobs (rejects if it exits first). */
  start(): Promise<void>;
  /** SIGTERM, then waits for the child to finish its chunks and exit. Idempotent. */
  stop(): Promise<void>;
  /** The running child's pid (undefined between restarts). */
  pid(): number | undefined;
}

const ENTRY = fileURLToPath(new URL('./batch-worker.process.ts', import.meta.url));
/** Restart delay after an unexpected exit: doubles from 1 s up to 30 s; reset after a minute up. */
const RESTART_MIN_MS = 1000;
const RESTART_MAX_MS = 30_000;
const METRICS_TIMEOUT_MS = 2000;
/** After SIGTERM, the child gets this long to finish its in-flight chunks before SIGKILL. */
const STOP_KILL_AFTER_MS = 12_000;

export function createBatchWorkerProcess(options: { env: NodeJS.ProcessEnv; logger: Logger }): BatchWorkerProcess {
  const log = options.logger.child({ scope: 'batch-worker-process' });
  let child: ChildProcess | undefined;
  let stopping = false;
  let stopped: Promise<void> | undefined;
  let restartTimer: NodeJS.Timeout | undefined;
  let restartDelay = RESTART_MIN_MS;
  let nextId = 0;
  const pending = new Map<number, (metrics: MetricsSnapshot) => void>();

  function spawn(): Promise<void> {
    const startedAt = Date.now();
    const proc = fork(ENTRY, [], {
      env: options.env,
      // The parent's flags (e.g. --import), minus a debugger port the child cannot share.
      execArgv: process.execArgv.filter((arg) => !arg.startsWith('--inspect')),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child = proc;
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      proc.on('message', (message: BatchWorkerMessage) => {
        if (message?.type === 'ready') {
          ready = true;
          log.info({ pid: proc.pid }, 'batch chunk worker process consuming');
          resolve();
        } else if (message?.type === 'metrics') {
          pending.get(message.id)?.(message.metrics);
          pending.delete(message.id);
        }
      });
      proc.on('error', (err) => log.error({ err }, 'batch chunk worker process error'));
      proc.on('exit', (code, signal) => {
        if (child === proc) child = undefined;
        if (!ready)
          reject(
            new Error(`the batch chunk worker process exited before it was ready (code ${code}, signal ${signal})`),
          );
        if (stopping) return;
        if (Date.now() - startedAt > 60_000) restartDelay = RESTART_MIN_MS;
        log.error({ code, signal, restartInMs: restartDelay }, 'batch chunk worker process exited; restarting it');
        restartTimer = setTimeout(() => {
          restartTimer = undefined;
          if (!stopping)
            spawn().catch((err: unknown) => log.error({ err }, 'batch chunk worker process restart failed'));
        }, restartDelay);
        restartDelay = Math.min(restartDelay * 2, RESTART_MAX_MS);
      });
    });
  }

  function metrics(): Promise<MetricsSnapshot> {
    const proc = child;
    if (!proc?.connected) return Promise.resolve([]);
    const id = ++nextId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        resolve([]);
      }, METRICS_TIMEOUT_MS);
      pending.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      proc.send({ type: 'metrics', id } satisfies BatchWorkerRequest, (err) => {
        if (!err) return;
        clearTimeout(timer);
        pending.delete(id);
        resolve([]);
      });
    });
  }
  let removePeer: (() => void) | undefined;

  return {
    async start() {
      await spawn();
      removePeer = addMetricsPeer(metrics);
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        clearTimeout(restartTimer);
        removePeer?.();
        const proc = child;
        if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
        const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
        proc.kill('SIGTERM');
        const kill = setTimeout(() => proc.kill('SIGKILL'), STOP_KILL_AFTER_MS);
        await exited;
        clearTimeout(kill);
      })();
      return stopped;
    },
    pid: () => child?.pid,
  };
}
