import { Router } from 'express';
import { metricsRouter } from './metrics.ts';
import type { MetricsOptions } from './observability.ts';

export type Check = () => Promise<void> | void;

export interface Health {
  /** Adds a dependency check; readiness fails while any check throws. */
  register(name: string, check: Check): void;
  /** Marks the process as draining: /readyz answers 503 so load balancers stop sending. */
  drain(): void;
  report(): Promise<{ ready: boolean; checks: Record<string, string> }>;
  /** GET /healthz (process alive), GET /readyz (dependencies reachable) and GET /metrics when enabled. */
  router(): Router;
}

const CHECK_TIMEOUT_MS = 2_000;

/** `metrics`: serve GET /metrics beside the probes (every service mounts this router on its port). */
export function createHealth(options: { metrics?: MetricsOptions } = {}): Health {
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
      if (options.metrics?.enabled) router.use(metricsRouter({ token: options.metrics.token }));
      return router;
    },
  };
  return health;
}
