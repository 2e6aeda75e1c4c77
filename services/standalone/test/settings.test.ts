// Every variable of every service's schema, set to a value other than its default, must
// change that service's settings, and the one-process mode must end up with the same
// settings for that service. The variables are enumerated from the schemas: a variable
// added to a service without a case here fails, and so does one the standalone ignores.
// (What the settings then do is each service's own tests' business; the standalone e2e
// test checks the headline ones on the running system.)
import { describe, expect, it } from '@jest/globals';
import { isDeepStrictEqual } from 'node:util';
import { authConfigFrom } from '@skiptrace/auth';
import { webhookConfigFrom } from '@skiptrace/webhooks';
import { gatewayConfigFrom } from '@skiptrace/gateway';
import { loadConfig, observabilityEnv, observabilityEnvSchema, observabilitySettingsFrom } from '@skiptrace/runtime';
import { workerConfigFrom } from '@skiptrace/worker';
import {
  SERVICE_ENVS,
  standaloneConfigFrom,
  standaloneEnv,
  standaloneOwnEnv,
  type StandaloneConfig,
} from '../src/index.ts';

/** A valid value other than the default, per variable. */
const CASES: Record<string, string> = {
  PORT: '9123',
  LOG_LEVEL: 'debug',
  SKIPTRACE_DATA_DIR: '/srv/skiptrace',
  DATABASE_URL: 'postgres://app@db.internal:5432/skiptrace',
  DATABASE_POOL_MAX: '3',
  AMQP_URL: 'amqp://app@mq.internal:5672/skiptrace',
  REDIS_URL: 'redis://cache.internal:6379/2',
  REDIS_PREFIX: 'tenant-a:',
  AUTH_ISSUER: 'https://login.example.com',
  API_AUDIENCE: 'urn:example:api',
  PUBLIC_URL: 'https://api.example.com/api/v1',
  AUTH_JWKS_URL: 'http://auth.internal:8081/oauth/jwks',
  SYNC_DEADLINE_MS: '2500',
  MAX_BODY_BYTES: '2048',
  API_RATE_LIMIT_PER_MINUTE: '5',
  SKIPTRACE_WEBHOOK_ALLOW_PRIVATE: 'true',
  SKIPTRACE_WEBHOOK_LOOPBACK_ONLY: 'true',
  SKIPTRACE_WEBHOOK_TIMEOUT_MS: '3000',
  SKIPTRACE_WEBHOOK_CONCURRENCY: '7',
  SKIPTRACE_WEBHOOK_ENDPOINT_CONCURRENCY: '3',
  SKIPTRACE_WEBHOOK_ENDPOINT_RATE_PER_SEC: '9',
  SKIPTRACE_WEBHOOK_DISABLE_AFTER_HOURS: '48',
  BATCH_MAX_ROWS: '1000',
  BATCH_CHUNK_SIZE: '50',
  BATCH_CHUNKS_IN_FLIGHT: '2',
  BATCH_PAGE_ROWS: '100',
  BATCH_MAX_ROW_BYTES: '4096',
  BATCH_MAX_COLUMNS: '50',
  BATCH_EXPORTS_PER_ACCOUNT: '1',
  BATCH_EXPORTS_PER_PROCESS: '3',
  BATCH_MAX_INFLATED_BYTES: '65536',
  BATCH_MAX_INFLATION_RATIO: '50',
  BATCH_UPLOAD_HEARTBEAT_MS: '2000',
  AUDIT_RETENTION_DAYS: '30',
  SKIPTRACE_ADMIN_TOKEN: 'an-operator-secret-of-32-chars!!',
  AUTH_SIGNING_KEYS: JSON.stringify({
    keys: [
      {
        kty: 'EC',
        crv: 'P-256',
        kid: 'k1',
        use: 'sig',
        alg: 'ES256',
        x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
        y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
        d: 'jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI',
      },
    ],
  }),
  AUTH_COOKIE_KEYS: 'cookie-secret-2,cookie-secret-1',
  AUTH_KEY_ENCRYPTION_KEYS: Buffer.alloc(32, 7).toString('base64'),
  AUTH_TRUST_PROXY: 'true',
  AUTH_ACCESS_TOKEN_TTL: '120',
  AUTH_REFRESH_TOKEN_TTL: '7200',
  AUTH_TOKEN_RATE_LIMIT: '3',
  AUTH_TOKEN_IP_RATE_LIMIT: '4',
  AUTH_CLIENT_AUTH_FAILURE_LIMIT: '6',
  AUTH_LOGIN_RATE_LIMIT: '2',
  AUTH_LOCKOUT_THRESHOLD: '9',
  AUTH_LOCKOUT_BASE_SECONDS: '10',
  AUTH_LOCKOUT_MAX_SECONDS: '600',
  AUTH_CONSOLE_URL: 'https://console.example.com/console',
  WORKER_PREFETCH: '8',
  WORKER_MAX_ATTEMPTS: '2',
  TRACE_MAX_PEOPLE: '3',
  RECOVERY_STALE_AFTER_MS: '5000',
  RECOVERY_INTERVAL_MS: '1000',
  BATCH_PREFETCH: '6',
  BATCH_MAX_ATTEMPTS: '3',
  BATCH_REUSE_TTL_SECONDS: '0',
  BATCH_SWEEP_INTERVAL_MS: '0',
  BATCH_STALE_CHUNK_MS: '60000',
  BATCH_UPLOAD_LEASE_MS: '60000',
  BATCH_MAX_CHUNK_DISPATCHES: '2',
  SKIPTRACE_DEMO_ROWS: '0',
  SKIPTRACE_BATCH_WORKER: 'inline',
  METRICS_ENABLED: 'false',
  METRICS_TOKEN: 'a-metrics-scrape-token-of-32-chars',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://otel-collector:4318/v1/traces',
  OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
  OTEL_SERVICE_NAME: 'skiptrace-eu',
  OTEL_TRACES_SAMPLER: 'traceidratio',
  OTEL_TRACES_SAMPLER_ARG: '0.25',
};

/**
 * Variables whose default depends on the mode (documented in the README): the one-process
 * mode serves the OAuth server and the API on one port, so PORT also moves the issuer and
 * the API's URL there, and it allows private webhook targets by default (demos).
 */
const STANDALONE_VALUES: Record<string, string> = { SKIPTRACE_WEBHOOK_ALLOW_PRIVATE: 'false' };

type Service = keyof typeof SERVICE_ENVS;
/** What a process does with its adapters and logger: the same functions read these in every mode. */
const PROCESS_KEYS = [
  'PORT',
  'LOG_LEVEL',
  'SKIPTRACE_DATA_DIR',
  'DATABASE_URL',
  'DATABASE_POOL_MAX',
  'AMQP_URL',
  'REDIS_URL',
  'REDIS_PREFIX',
];
const processOf = (env: Record<string, unknown>) =>
  Object.fromEntries(PROCESS_KEYS.filter((k) => k in env).map((k) => [k, env[k]]));

/** A service's settings, as its own main.ts computes them (metrics and tracing: startProcess). */
function serviceSettings(service: Service, input: Record<string, string>): unknown {
  // The worker process requires its URLs; the schema shared with the standalone does not.
  const env = loadConfig(SERVICE_ENVS[service], input) as never;
  const config = {
    gateway: gatewayConfigFrom,
    auth: authConfigFrom,
    worker: workerConfigFrom,
    dispatcher: webhookConfigFrom,
  }[service](env);
  const observability = observabilitySettingsFrom(loadConfig(observabilityEnvSchema, input), service);
  return { config, process: processOf(env), observability };
}

const standalone = (input: Record<string, string>): StandaloneConfig =>
  standaloneConfigFrom(loadConfig(standaloneEnv, input));
/** The same service's settings inside the one-process system. */
function standaloneSettings(service: Service, system: StandaloneConfig): unknown {
  return { config: system[service], process: processOf(system.env), observability: system.observability };
}

/** Everything the one-process system is built from (its parsed env only where adapters and logger read it). */
const behaviour = ({ env, ...built }: StandaloneConfig) => ({ ...built, process: processOf(env) });

/** Paths (a.b.c) at which two plain values differ. */
function changedPaths(a: unknown, b: unknown, prefix = ''): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => changedPaths((a as never)[k], (b as never)[k], `${prefix}${k}.`));
  }
  return [prefix.slice(0, -1)];
}
const at = (value: unknown, path: string) =>
  path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value);

/** The services reading a variable: metrics and tracing variables are read by every process. */
const owners = (name: string) =>
  (Object.keys(SERVICE_ENVS) as Service[]).filter((s) => name in SERVICE_ENVS[s].shape || name in observabilityEnv);
const variables = [
  ...new Set([
    ...Object.values(SERVICE_ENVS).flatMap((s) => Object.keys(s.shape)),
    ...Object.keys(observabilityEnv),
    ...Object.keys(standaloneOwnEnv),
  ]),
];

describe('every documented variable means the same in its service and in the one-process mode', () => {
  it('has a case for every variable of every schema', () => {
    expect(variables.filter((name) => !(name in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((name) => !variables.includes(name))).toEqual([]);
  });

  const base = standalone({});
  it.each(variables)('%s', (name) => {
    const value = CASES[name]!;
    for (const service of owners(name)) {
      const before = serviceSettings(service, {});
      const after = serviceSettings(service, { [name]: value });
      const paths = changedPaths(before, after);
      // The service reads it...
      expect({ service, name, changes: paths.length > 0 }).toEqual({ service, name, changes: true });
      // ...and the one-process system ends up where the service does, at every path it moved.
      const inSystem = standaloneSettings(service, standalone({ [name]: value }));
      for (const path of paths)
        expect({ service, name, path, value: at(inSystem, path) }).toEqual({
          service,
          name,
          path,
          value: at(after, path),
        });
    }
    // And the one-process system's behaviour changes when it is set to its own non-default.
    const own = standalone({ [name]: STANDALONE_VALUES[name] ?? value });
    const moved = changedPaths(behaviour(base), behaviour(own));
    expect({ name, changes: moved.length > 0 }).toEqual({ name, changes: true });
  });
});
