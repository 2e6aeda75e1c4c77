/**
 * The smallest logger the bus needs: pino's `(obj, msg)` call shape, so a pino logger
 * (or `logger.child({ scope: 'bus' })`) can be passed as is. Libraries emit, hosts log:
 * the default discards everything.
 */
export interface BusLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

const discard = (): void => {};

export const silentLogger: BusLogger = { info: discard, warn: discard, error: discard, debug: discard };

/** The message of a thrown value, which need not be an Error. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
