/**
 * Test harness: the auth service on a real server at 127.0.0.1:<random port> (the issuer
 * needs the port, so the server listens first and gets its handler after), with a /callback
 * route on the same server that records what the authorization server redirected with.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Database } from '@skiptrace/storage';
import type { KeyValueStore } from '@skiptrace/kv';
import { silentLogger } from '@skiptrace/runtime';
import { authConfig, createAuthService, type AuthConfig, type AuthService } from '../src/index.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface RunningAuth {
  url: string;
  service: AuthService;
  callbacks: URL[];
  close(): Promise<void>;
}

export async function startAuth(
  db: Database,
  kv: KeyValueStore,
  overrides: Partial<AuthConfig> = {},
  port = 0,
): Promise<RunningAuth> {
  const callbacks: URL[] = [];
  const app = express();
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = authConfig({ issuer: url, adminToken: ADMIN_TOKEN, ...overrides });
  const service = await createAuthService({ db, kv, config, logger: silentLogger() });
  // No keep-alive: a test that restarts the service on the same port must not reuse a
  // pooled socket of the old server.
  app.use((_req, res, next) => {
    res.set('Connection', 'close');
    next();
  });
  app.get('/callback', (req, res) => {
    callbacks.push(new URL(req.originalUrl, url));
    res.type('text').send('callback received');
  });
  app.use(service.app);
  return {
    url,
    service,
    callbacks,
    async close() {
      await service.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * `n` parallel client_credentials requests with one client id and secret, answered with
 * their statuses (bursts against the client-authentication failure limit, #22 defect 7).
 */
export function clientCredentialsBurst(url: string, clientId: string, secret: string, n: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const res = await fetch(`${url}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
      });
      await res.body?.cancel();
      return res.status;
    }),
  );
}
