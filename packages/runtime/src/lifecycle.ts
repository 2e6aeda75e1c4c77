import type { Logger } from 'pino';

export interface Shutdown {
  /**
   * Registers a step. Steps run in reverse order of registration, so register
   * connections first and intake (HTTP servers, consumers) last: intake stops first,
   * in-flight work drains, connections close at the end.
   */
  add(name: string, step: () => Promise<void> | void): void;
  /** Runs every step once, even when one fails; later calls return the same promise. */
  run(reason: string): Promise<void>;
}

export function createShutdown(logger: Logger, stepTimeoutMs = 15_000): Shutdown {
  const steps: { name: string; step: () => Promise<void> | void }[] = [];
  let running: Promise<void> | undefined;
  return {
    add(name, step) {
      steps.push({ name, step });
    },
    run(reason) {
      running ??= (async () => {
        logger.info({ reason }, 'shutting down');
        for (const { name, step } of [...steps].reverse()) {
          let timer: NodeJS.Timeout | undefined;
          try {
            await Promise.race([
              Promise.resolve().then(step),
              new Promise((_, reject) => {
                timer = setTimeout(() => reject(new Error(`timed out after ${stepTimeoutMs} ms`)), stepTimeoutMs);
              }),
            ]);
            logger.debug({ step: name }, 'shutdown step done');
          } catch (err) {
            logger.error({ step: name, err }, 'shutdown step failed');
          } finally {
            clearTimeout(timer);
          }
        }
        logger.info('shutdown complete');
      })();
      return running;
    },
  };
}

/**
 * For main.ts only: runs the shutdown on SIGTERM/SIGINT and exits. A second signal
 * exits at once.
 */
export function exitOnSignals(shutdown: Pick<Shutdown, 'run'>, logger: Logger): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) process.exit(130);
    signalled = true;
    shutdown.run(signal).then(
      () => process.exit(0),
      (err: unknown) => {
        logger.fatal({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
