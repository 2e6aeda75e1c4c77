import { Router } from 'express';

export type Check = () => Promise<void> | void;

export interface Health {
  /** Adds a dependency check; readiness fails while any check throws. */
  register(name: string, check: Check): void;
  /** Marks the process as draining: /readyz answers 503 so load balancers stop sending. */
  drain(): void;
  report(): Promise<{ ready: boolean; checks: Record<string, string> }>;
  /** GET /healthz (process alive) and GET /readyz (dependencies reachable). */
  router(): Router;
}

const CHECK_TIMEOUT_MS = 2_000;

export function createHealth(): Health {
  const checks = new Map<string, Check>();
  let draining = false;
  const run = async (check: Check) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(check),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('check timed out')), CHECK_TIMEOUT_MS);
        }),
      ]);
      return 'ok';
    } catch (err) {
      return (err as Error).message || 'failed';
    } finally {
      clearTimeout(timer);
    }
  };
  const health: Health = {
    register: (name, check) => void checks.set(name, check),
    drain: () => {
      draining = true;
    },
    async report() {
      const entries = await Promise.all([...checks].map(async ([name, check]) => [name, await run(check)] as const));
      const result = Object.fromEntries(entries);
      if (draining) result.shutdown = 'draining';
      return { ready: Object.values(result).every((v) => v === 'ok'), checks: result };
    },
    router() {
      const router = Router();
      router.get('/healthz', (_req, res) => {
        res.json({ status: 'ok' });
      });
      router.get('/readyz', async (_req, res) => {
        const { ready, checks: detail } = await health.report();
        res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: detail });
      });
      return router;
    },
  };
  return health;
}
