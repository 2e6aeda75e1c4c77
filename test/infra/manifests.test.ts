// Structural checks of the Kubernetes manifests: schema-valid (bundled OpenAPI schemas,
// no cluster needed) and holding the invariants operations rely on.
import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MESSAGES } from '@skiptrace/contracts';
import { observabilityEnvSchema } from '@skiptrace/runtime';
import { SERVICE_ENVS } from '@skiptrace/standalone';
import { deploymentSpec, loadManifests, loadYaml, readText, root, selects, yamlFiles } from './infra-files.ts';
import type { Container, LoadedManifest, Manifest, PodSpec } from './infra-files.ts';

const manifests = loadManifests();
const kustomization = loadYaml<{ resources: string[]; images: { name: string }[] }>('k8s/kustomization.yaml');
const of = (kind: string) => manifests.filter((m) => m.kind === kind);
const deployments = of('Deployment');
const secret = of('Secret')[0];
const configMap = of('ConfigMap')[0];

/** The port each service listens on (its config default), health port for worker and dispatcher. */
const PORTS: Record<string, number> = { gateway: 8080, auth: 8081, worker: 8082, dispatcher: 8083 };

const MODEL_MODULES: Record<string, string> = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'policy/v1': 'kubernetes-models/policy/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
  'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};
type Model = new (data: unknown) => { validate(): void };

function container(m: Manifest): Container {
  const c = deploymentSpec(m).template.spec.containers[0];
  if (!c) throw new Error(`${m.metadata.name}: no container`);
  return c;
}
const pod = (m: Manifest): PodSpec => deploymentSpec(m).template.spec;

/** The variables a service's main.ts parses: its environment schema and the observability one every process reads. */
const declared = (service: string): string[] => [
  ...Object.keys(SERVICE_ENVS[service as keyof typeof SERVICE_ENVS]?.shape ?? {}),
  ...Object.keys(observabilityEnvSchema.shape),
];

describe('k8s manifests', () => {
  it('parse, name themselves and validate against the Kubernetes and KEDA schemas', async () => {
    expect(manifests.length).toBeGreaterThan(10);
    for (const m of manifests) {
      expect({ file: m.file, name: m.metadata?.name, kind: m.kind }).toEqual({
        file: m.file,
        name: expect.any(String),
        kind: expect.any(String),
      });
      const module = MODEL_MODULES[m.apiVersion];
      if (!module) throw new Error(`${m.file}: no schema for apiVersion ${m.apiVersion}`);
      const models = (await import(module)) as Record<string, Model>;
      const ModelClass = models[m.kind];
      if (!ModelClass) throw new Error(`${m.file}: no schema for ${m.apiVersion} ${m.kind}`);
      const { file: _file, ...body } = m;
      expect(() => new ModelClass(body).validate()).not.toThrow();
    }
  });

  it('kustomization lists every manifest except the Secret template, and sets the one image', () => {
    const expected = yamlFiles().filter((f) => f !== 'kustomization.yaml' && f !== 'secret.template.yaml');
    expect([...kustomization.resources].sort()).toEqual(expected);
    const images = new Set(deployments.map((d) => container(d).image.split(':')[0]));
    expect([...images]).toEqual([kustomization.images[0]?.name]);
  });

  it('has one Deployment per service, each running its own main.ts', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(Object.keys(PORTS).sort());
    for (const d of deployments) {
      // The image's own start command for that service (test/infra/same-image.test.ts).
      expect(container(d).command?.at(-1)).toBe(`services/${d.metadata.name}/src/main.ts`);
      expect(existsSync(join(root, 'services', d.metadata.name, 'package.json'))).toBe(true);
    }
  });

  describe.each(Object.keys(PORTS))('%s Deployment', (name) => {
    const d = deployments.find((m) => m.metadata.name === name) as LoadedManifest;
    const spec = () => deploymentSpec(d);
    const c = () => container(d);
    const labels = () => spec().template.metadata.labels;

    it('selects its own pods, and its Service and PDB select them too', () => {
      expect(selects(spec().selector.matchLabels, labels())).toBe(true);
      const others = deployments.filter((o) => o !== d);
      for (const o of others)
        expect(selects(spec().selector.matchLabels, deploymentSpec(o).template.metadata.labels)).toBe(false);
      const pdbs = of('PodDisruptionBudget').filter((p) =>
        selects((p.spec?.selector as { matchLabels?: Record<string, string> })?.matchLabels, labels()),
      );
      expect(pdbs).toHaveLength(1);
      for (const svc of of('Service').filter((s) => s.metadata.name === name)) {
        expect(selects(svc.spec?.selector as Record<string, string>, labels())).toBe(true);
      }
    });

    it('has CPU and memory requests and limits', () => {
      for (const kind of ['requests', 'limits'] as const) {
        expect(c().resources?.[kind]).toEqual(
          expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }),
        );
      }
    });

    it('probes /healthz (liveness) and /readyz (readiness) on the port it listens on', () => {
      const port = String(PORTS[name]);
      expect(c().env?.find((e) => e.name === 'PORT')?.value).toBe(port);
      const resolve = (p: string | number | undefined) =>
        typeof p === 'number' ? p : c().ports?.find((cp) => cp.name === p)?.containerPort;
      expect(c().livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(c().readinessProbe?.httpGet?.path).toBe('/readyz');
      for (const probe of [c().livenessProbe, c().readinessProbe, c().startupProbe]) {
        if (probe) expect(resolve(probe.httpGet?.port)).toBe(PORTS[name]);
      }
    });

    it('runs as non-root on a read-only root filesystem without privileges', () => {
      const nonRoot = pod(d).securityContext?.runAsNonRoot ?? c().securityContext?.runAsNonRoot;
      expect(nonRoot).toBe(true);
      expect(pod(d).securityContext?.runAsUser).not.toBe(0);
      expect(c().securityContext).toEqual(
        expect.objectContaining({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false }),
      );
      expect(c().securityContext?.capabilities?.drop).toContain('ALL');
    });

    it('spreads its pods over zones and nodes', () => {
      const keys = (pod(d).topologySpreadConstraints ?? []).map((t) => {
        expect(selects(t.labelSelector?.matchLabels, labels())).toBe(true);
        return t.topologyKey;
      });
      expect(keys).toEqual(expect.arrayContaining(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']));
    });

    it('gives the service longer than its worst-case drain to stop', () => {
      // createShutdown caps each step; main.ts registers the steps.
      const stepMs = Number(
        /stepTimeoutMs = ([\d_]+)/.exec(readText('packages/runtime/src/lifecycle.ts'))?.[1]?.replace(/_/g, ''),
      );
      expect(stepMs).toBeGreaterThan(0);
      const main = join(root, 'services', name, 'src', 'main.ts');
      // Steps: its own shutdown.add calls, one per adapter opened (@skiptrace/adapters) and one for listen().
      const text = existsSync(main) ? readFileSync(main, 'utf8') : '';
      const steps = (text.match(/shutdown\.add\(|\bopen(?:Database|Bus|KeyValue)\(|\blisten\(/g) ?? []).length || 4;
      const preStop = c().lifecycle?.preStop?.exec?.command;
      const sleep = preStop?.[0] === 'sleep' ? Number(preStop[1]) : 0;
      expect(pod(d).terminationGracePeriodSeconds).toBeGreaterThan(sleep + (Math.max(steps, 1) * stepMs) / 1000);
    });

    it("takes every variable from the ConfigMap or Secret that defines it, and the service's schema declares it", () => {
      for (const env of c().env ?? []) {
        const variable = env.name.replace(/_FILE$/, '');
        expect({ env: env.name, declared: declared(name).includes(variable) }).toEqual({
          env: env.name,
          declared: true,
        });
        const cm = env.valueFrom?.configMapKeyRef;
        if (cm)
          expect({
            env: env.name,
            ok: cm.name === configMap?.metadata.name && cm.key in (configMap.data ?? {}),
          }).toEqual({ env: env.name, ok: true });
        const sk = env.valueFrom?.secretKeyRef;
        if (sk)
          expect({
            env: env.name,
            ok: sk.name === secret?.metadata.name && sk.key in (secret.stringData ?? {}),
          }).toEqual({ env: env.name, ok: true });
        if (
          /URL$|TOKEN|KEYS?$|PASSWORD/.test(env.name) &&
          !['AUTH_ISSUER', 'AUTH_JWKS_URL', 'PUBLIC_URL'].includes(env.name)
        ) {
          expect({ env: env.name, secret: Boolean(sk) || env.name.endsWith('_FILE') }).toEqual({
            env: env.name,
            secret: true,
          });
        }
        if (env.name.endsWith('_FILE')) {
          const mount = c().volumeMounts?.find((vm) => env.value?.startsWith(`${vm.mountPath}/`));
          const volume = pod(d).volumes?.find((v) => v.name === mount?.name);
          expect(volume?.secret?.secretName).toBe(secret?.metadata.name);
          const item = volume?.secret?.items?.find((i) => `${mount?.mountPath}/${i.path}` === env.value);
          expect(item && item.key in (secret?.stringData ?? {})).toBe(true);
        }
      }
    });
  });

  it('scales the gateway and the dispatcher on CPU, and leaves them no fixed replica count', () => {
    for (const target of ['gateway', 'dispatcher']) {
      const hpa = of('HorizontalPodAutoscaler').find(
        (h) => (h.spec?.scaleTargetRef as { name: string }).name === target,
      );
      expect(hpa?.apiVersion).toBe('autoscaling/v2');
      expect(hpa?.spec?.metrics).toEqual([
        { type: 'Resource', resource: { name: 'cpu', target: expect.objectContaining({ type: 'Utilization' }) } },
      ]);
      expect(deploymentSpec(deployments.find((m) => m.metadata.name === target) as Manifest).replicas).toBeUndefined();
    }
  });

  it('scales the workers with KEDA on the depth of both job queues', () => {
    const so = of('ScaledObject').find((s) => (s.spec?.scaleTargetRef as { name: string }).name === 'worker');
    const triggers = (so?.spec?.triggers ?? []) as {
      type: string;
      metadata: Record<string, string>;
      authenticationRef?: { name: string };
    }[];
    const queues = triggers
      .filter((t) => t.type === 'rabbitmq' && t.metadata.mode === 'QueueLength')
      .map((t) => t.metadata.queueName);
    expect(queues.sort()).toEqual([MESSAGES['job.batch.chunk'].queue, MESSAGES['job.skiptrace'].queue].sort());
    expect(Number(so?.spec?.minReplicaCount)).toBeGreaterThanOrEqual(1);
    expect(deploymentSpec(deployments.find((m) => m.metadata.name === 'worker') as Manifest).replicas).toBeUndefined();
    for (const t of triggers) {
      const auth = of('TriggerAuthentication').find((a) => a.metadata.name === t.authenticationRef?.name);
      const refs = (auth?.spec?.secretTargetRef ?? []) as { parameter: string; name: string; key: string }[];
      expect(refs.map((r) => r.parameter)).toContain('host');
      for (const r of refs) expect(r.name === secret?.metadata.name && r.key in (secret.stringData ?? {})).toBe(true);
    }
  });

  it('routes the ingress over TLS: /api to the gateway, the OAuth paths to auth, nothing else', () => {
    const [ingress] = of('Ingress');
    const spec = ingress?.spec as {
      tls: unknown[];
      rules: { http: { paths: { path: string; backend: { service: { name: string; port: { name?: string } } } }[] } }[];
    };
    expect(spec.tls.length).toBeGreaterThan(0);
    const paths = spec.rules.flatMap((r) => r.http.paths);
    expect(paths.find((p) => p.path === '/api')?.backend.service.name).toBe('gateway');
    for (const path of ['/oauth', '/.well-known', '/interaction']) {
      expect(paths.find((p) => p.path === path)?.backend.service.name).toBe('auth');
    }
    // No catch-all: /metrics (on every service's port) must not be reachable from outside.
    expect(paths.filter((p) => '/metrics'.startsWith(p.path))).toEqual([]);
    for (const p of paths) {
      const svc = of('Service').find((s) => s.metadata.name === p.backend.service.name);
      const ports = (svc?.spec?.ports ?? []) as { name: string }[];
      expect(ports.map((sp) => sp.name)).toContain(p.backend.service.port.name);
    }
    expect(configMap?.data?.AUTH_TRUST_PROXY).toBe('true');
    expect(configMap?.data?.AUTH_ISSUER).toMatch(/^https:\/\//);
  });

  it('ships the Secret as a template of placeholders only', () => {
    expect(secret?.file).toBe('secret.template.yaml');
    for (const [key, value] of Object.entries(secret?.stringData ?? {})) {
      expect({ key, placeholder: value.includes('REPLACE_ME') }).toEqual({ key, placeholder: true });
    }
    expect(readText('k8s/.gitignore')).toMatch(/^secret\.yaml$/m);
  });
});
