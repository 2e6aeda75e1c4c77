import { z } from 'zod';
import { authConfigFrom, authEnv, type AuthConfig } from '@skiptrace/auth';
import { dispatcherEnv, webhookConfigFrom, webhookEnv, type WebhookConfig } from '@skiptrace/webhooks';
import { gatewayConfigFrom, gatewayEnv, type GatewayProcessConfig } from '@skiptrace/gateway';
import {
  envInt,
  envPort,
  observabilityEnv,
  observabilitySettingsFrom,
  type ObservabilitySettings,
} from '@skiptrace/runtime';
import { workerConfigFrom, workerEnv, type WorkerProcessConfig } from '@skiptrace/worker';

/** The services whose environments the one-process mode unites. */
export const SERVICE_ENVS = { gateway: gatewayEnv, auth: authEnv, worker: workerEnv, dispatcher: dispatcherEnv };

/**
 * Variables of the one-process mode itself; every other variable is a service's and
 * means here what it means there. Where a default differs, it is redeclared here.
 */
export const standaloneOwnEnv = {
  PORT: envPort(8080),
  SKIPTRACE_DEMO_ROWS: envInt(0)
    .default(5000)
    .describe(
      'one-process mode: demo contacts generated on first start, and an owner world of half as many people (200 to 2,500) with a county roll of their parcels (0: none; the demo account is always created)',
    ),
  SKIPTRACE_WEBHOOK_ALLOW_PRIVATE: webhookEnv.SKIPTRACE_WEBHOOK_ALLOW_PRIVATE.unwrap()
    .default(true)
    .describe(
      'let webhook endpoints point at private and loopback addresses (SSRF guard off); default true in the one-process mode (demos)',
    ),
  SKIPTRACE_BATCH_WORKER: z
    .enum(['process', 'inline'])
    .default('process')
    .describe(
      'one-process mode: where batch chunks are traced. `process`: a child process of its own (own event loop and database pool, so a running batch does not delay synchronous requests; needs DATABASE_URL and AMQP_URL, else inline); `inline`: in the main process',
    ),
};

/**
 * Environment of the one-process mode: the union of the services' schemas and the metrics
 * and tracing variables every process reads, plus its own few keys, parsed once
 * (loadConfig: `_FILE` secrets, one error naming every bad variable).
 */
export const standaloneEnv = z.object({
  ...observabilityEnv,
  ...workerEnv.shape,
  ...dispatcherEnv.shape,
  ...authEnv.shape,
  ...gatewayEnv.shape,
  ...standaloneOwnEnv,
});
export type StandaloneEnv = z.infer<typeof standaloneEnv>;

export interface StandaloneConfig {
  env: StandaloneEnv;
  /** Public base URL of the process: the OAuth server's issuer; the API is at `${baseUrl}/api/v1`. */
  baseUrl: string;
  gateway: GatewayProcessConfig;
  auth: AuthConfig;
  worker: WorkerProcessConfig;
  dispatcher: WebhookConfig;
  /** Metrics and tracing, as every split service computes them (service name `skiptrace`). */
  observability: ObservabilitySettings;
  /** Demo contacts generated on first start. */
  demoRows: number;
  /**
   * Where the batch chunk worker runs: a child process (the default; the system falls back
   * to inline on the embedded store or bus, which live in this process) or this event loop.
   */
  batchWorker: 'process' | 'inline';
}

/**
 * Each service's settings, computed by that service's own function from the one parsed
 * environment. The OAuth server and the API share the process's port, so the issuer
 * defaults to http://localhost:$PORT and the API's public URL to `<issuer>/api/v1`.
 */
export function standaloneConfigFrom(env: StandaloneEnv): StandaloneConfig {
  const issued = authConfigFrom(env);
  // The console is served by this process too: its default URL follows the issuer.
  const auth = env.AUTH_CONSOLE_URL ? issued : { ...issued, consoleUrl: `${issued.issuer}/console` };
  const gateway = gatewayConfigFrom({
    ...env,
    AUTH_ISSUER: auth.issuer,
    PUBLIC_URL: env.PUBLIC_URL ?? `${auth.issuer}/api/v1`,
  });
  return {
    env,
    baseUrl: auth.issuer,
    gateway,
    auth,
    worker: workerConfigFrom(env),
    dispatcher: webhookConfigFrom(env),
    observability: observabilitySettingsFrom(env, 'skiptrace'),
    demoRows: env.SKIPTRACE_DEMO_ROWS,
    batchWorker: env.SKIPTRACE_BATCH_WORKER,
  };
}
