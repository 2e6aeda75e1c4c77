/**
 * What the console's browser tests share: the one-process system on a fresh data directory
 * with its demo user, a webhook receiver on loopback, and signing in to the console.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSystem, type System } from '@skiptrace/standalone';
import { freePort } from '@skiptrace/testing';
import { signIn } from '@skiptrace/testing/browser';
import type { Page } from 'playwright-core';

export interface ConsoleSystem {
  system: System;
  /** http://127.0.0.1:<port> */
  base: string;
  dataDir: string;
  /** The demo user, an owner of the demo account. */
  demo: { email: string; password: string };
  /** Stops the system and removes its data directory. */
  stop(): Promise<void>;
}

/** Starts the one-process system (embedded adapters, demo data) with `env` on top of the test defaults. */
export async function startConsoleSystem(name: string, env: Record<string, string> = {}): Promise<ConsoleSystem> {
  const dataDir = await mkdtemp(join(tmpdir(), `skiptrace-${name}-`));
  const system = await createSystem({
    PORT: String(await freePort()),
    SKIPTRACE_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const base = await system.start();
  const demo = JSON.parse(await readFile(join(dataDir, 'demo-credentials.json'), 'utf8')) as ConsoleSystem['demo'];
  return {
    system,
    base,
    dataDir,
    demo,
    stop: async () => {
      await system.stop('test done');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A webhook receiver on 127.0.0.1 that answers 204 to everything; `url` is its address with `path`. */
export async function loopbackReceiver(): Promise<{ server: Server; url: (path: string) => string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: (path) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}` };
}

/** Signs in on the auth server's page and waits for Batches (the first-party console asks no consent). */
export async function signInToConsole(page: Page, base: string, email: string, password: string): Promise<void> {
  await signIn(page, email, password);
  await page.waitForURL(`${base}/console/batches`);
}
