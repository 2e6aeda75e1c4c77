import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Health } from './health.ts';
import { createHttpServer } from './http-server.ts';
import type { Shutdown } from './lifecycle.ts';

/**
 * Listens on `port` (0: any free port) with the one HTTP server factory (createHttpServer's
 * timeouts and raw error answers) and registers the step that stops intake: readiness
 * turns 503 (draining), then the server stops accepting and waits for open requests.
 * Register it after the connections and consumers, so it runs first. Returns the bound port.
 */
export async function listen(
  app: RequestListener,
  port: number,
  deps: { shutdown: Pick<Shutdown, 'add'>; health: Pick<Health, 'drain'>; logger: Logger },
): Promise<number> {
  const server = createHttpServer(app, { logger: deps.logger });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
  deps.shutdown.add('http', async () => {
    deps.health.drain();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}
