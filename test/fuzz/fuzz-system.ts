/**
 * The one-process system the fuzzer runs against: embedded adapters in a fresh data
 * directory, rate limits off, webhooks kept to loopback (SKIPTRACE_WEBHOOK_LOOPBACK_ONLY: a
 * registered endpoint never makes the dispatcher send a packet off this machine; the
 * loopback guard refuses and reports any that would), and a client_credentials token of
 * the demo client with every scope (admin too: the fuzzer reaches the client and webhook
 * administration routes).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument } from '@skiptrace/contracts';
import { createSystem } from '@skiptrace/standalone';
import { clientCredentialsToken, demoClient } from '@skiptrace/testing';
import type { FuzzContext, OpenApiDocument } from './requests.ts';

export interface FuzzSystem {
  baseUrl: string;
  context: FuzzContext;
  document: OpenApiDocument;
  stop(): Promise<void>;
}

export async function startFuzzSystem(env: NodeJS.ProcessEnv = {}): Promise<FuzzSystem> {
  const dataDir = await mkdtemp(join(tmpdir(), 'skiptrace-fuzz-'));
  const system = await createSystem({
    PORT: '0',
    SKIPTRACE_DATA_DIR: dataDir,
    SKIPTRACE_DEMO_ROWS: '200',
    SKIPTRACE_WEBHOOK_LOOPBACK_ONLY: 'true',
    API_RATE_LIMIT_PER_MINUTE: '0',
    SYNC_DEADLINE_MS: '2000',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const baseUrl = (await system.start()).replace('localhost', '127.0.0.1');
  const stop = async () => {
    await system.stop('fuzz done');
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const demo = await demoClient(dataDir);
    const token = await clientCredentialsToken(baseUrl, demo, 'read write admin');
    const document = buildOpenApiDocument({
      apiUrl: `${baseUrl}/api/v1`,
      authUrl: baseUrl,
    }) as unknown as OpenApiDocument;
    return { baseUrl, context: { token, clientId: demo.clientId, clientSecret: demo.clientSecret }, document, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
