// One image, run the same way by the Dockerfile's own CMD, docker-compose.yml and k8s/: the
// same repository, the same start command per service (node flags included), the same
// non-root user, a read-only root filesystem with the same writable paths, the same ports,
// and the same base-image defaults in the compose file, the Dockerfile and the scripts
// that pick local stand-ins (scripts/compose-env.sh). Reads files only.
import { describe, expect, it } from '@jest/globals';
import { deploymentSpec, loadManifests, loadYaml, readText } from './infra-files.ts';

interface ComposeApp {
  image?: string;
  build?: { args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string>;
  read_only?: boolean;
  tmpfs?: string[];
  cap_drop?: string[];
  security_opt?: string[];
  user?: string;
}
const compose = loadYaml<{ services: Record<string, ComposeApp> }>('docker-compose.yml');
const SERVICES = ['gateway', 'auth', 'worker', 'dispatcher'];
const apps = Object.entries(compose.services).filter(([, svc]) => svc.build !== undefined);

const dockerfile = readText('Dockerfile')
  .replace(/\\\n/g, ' ')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
const finalStage = dockerfile.slice(dockerfile.map((l) => l.startsWith('FROM ')).lastIndexOf(true));
const [uid, gid] = (/^USER (\d+):(\d+)$/.exec(finalStage.filter((l) => l.startsWith('USER ')).at(-1) ?? '') ?? [])
  .slice(1)
  .map(Number);

/** The image's start command for a service: its CMD's `exec node …` with SKIPTRACE_SERVICE filled in. */
function imageCommand(service: string): string[] {
  const cmd = JSON.parse(
    finalStage
      .filter((l) => l.startsWith('CMD '))
      .at(-1)!
      .slice(4),
  ) as string[];
  const script = cmd.at(-1)!;
  const exec = /exec (node .*)$/.exec(script)?.[1];
  if (!exec) throw new Error(`CMD does not exec node: ${script}`);
  return exec
    .replaceAll('${SKIPTRACE_SERVICE}', service)
    .split(/\s+/)
    .map((word) => word.replace(/^\\?"|\\?"$/g, ''));
}

/** `${VAR:-default}` → [VAR, default]. */
function variable(value: string | undefined): [string, string] | undefined {
  const m = /^\$\{([A-Z_]+):-([^}]+)\}$/.exec(value ?? '');
  return m ? [m[1]!, m[2]!] : undefined;
}

const deployments = loadManifests().filter((m) => m.kind === 'Deployment');
const podOf = (name: string) => {
  const d = deployments.find((m) => m.metadata.name === name);
  if (!d) throw new Error(`no Deployment ${name}`);
  return deploymentSpec(d).template.spec;
};

describe('the Dockerfile, docker-compose.yml and k8s/ run one image', () => {
  it('the Dockerfile runs as a numeric non-root user and group', () => {
    expect(uid).toBeGreaterThan(0);
    expect(gid).toBeGreaterThan(0);
  });

  it('compose builds it from this Dockerfile, on the same Node image default, under the repository k8s deploys', () => {
    const nodeDefault = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile.join('\n'))?.[1];
    const repos = new Set(deployments.map((d) => deploymentSpec(d).template.spec.containers[0]!.image.split(':')[0]));
    expect(repos.size).toBe(1);
    for (const [name, svc] of apps) {
      expect({ name, nodeImage: variable(svc.build?.args?.NODE_IMAGE) }).toEqual({
        name,
        nodeImage: ['NODE_IMAGE', nodeDefault],
      });
      const image = variable(svc.image)?.[1] ?? svc.image;
      expect({ name, repo: image?.split(':')[0] }).toEqual({ name, repo: [...repos][0] });
    }
  });

  it.each(SERVICES)('%s: k8s runs the command the image runs in compose (SKIPTRACE_SERVICE)', (name) => {
    const svc = compose.services[name]!;
    expect(svc.command).toBeUndefined();
    expect(svc.environment?.SKIPTRACE_SERVICE).toBe(name);
    expect(podOf(name).containers[0]!.command).toEqual(imageCommand(name));
  });

  it.each(SERVICES)('%s: the same user, read-only root and writable paths in compose and k8s', (name) => {
    const pod = podOf(name);
    const container = pod.containers[0]!;
    expect(pod.securityContext).toEqual(expect.objectContaining({ runAsNonRoot: true, runAsUser: uid }));
    expect((pod.securityContext as { runAsGroup?: number }).runAsGroup).toBe(gid);
    expect(container.securityContext).toEqual(expect.objectContaining({ readOnlyRootFilesystem: true }));
    const svc = compose.services[name]!;
    // Compose runs the image's USER (no override that could differ from k8s).
    expect(svc.user).toBeUndefined();
    expect(svc.read_only).toBe(true);
    expect(svc.cap_drop).toEqual(['ALL']);
    expect(svc.security_opt).toContain('no-new-privileges:true');
    // Writable: what k8s mounts from emptyDir volumes is what compose mounts as tmpfs.
    const emptyDirs = new Set((pod.volumes ?? []).filter((v) => 'emptyDir' in v).map((v) => v.name as string));
    const writable = (container.volumeMounts ?? []).filter((m) => emptyDirs.has(m.name)).map((m) => m.mountPath);
    expect([...(svc.tmpfs ?? [])].sort()).toEqual(writable.sort());
  });

  it.each(SERVICES)('%s: the same port in the Dockerfile health check, compose and k8s', (name) => {
    const defaults = /const d=(\{[^}]*\})/.exec(finalStage.find((l) => l.startsWith('HEALTHCHECK '))!)?.[1];
    const port = (JSON.parse(defaults!.replace(/(\w+):/g, '"$1":')) as Record<string, number>)[name];
    expect(compose.services[name]?.environment?.PORT).toBe(String(port));
    const env = podOf(name).containers[0]!.env ?? [];
    expect(env.find((e) => e.name === 'PORT')?.value).toBe(String(port));
  });

  it('the example receiver runs from the same image and as the same user', () => {
    const receiver = compose.services['webhook-receiver']!;
    expect(apps.map(([name]) => name)).toContain('webhook-receiver');
    expect(receiver.read_only).toBe(true);
    expect(receiver.command?.[0]).toBe('node');
  });

  it('scripts/compose-env.sh falls back from the same official images the compose file defaults to', () => {
    const script = readText('scripts/compose-env.sh');
    const official = Object.fromEntries(
      [...script.matchAll(/\[([A-Z_]+_IMAGE)\]=(\S+?)[\s)]/g)].map((m) => [m[1]!, m[2]!]),
    );
    const defaults: Record<string, string> = {};
    for (const svc of Object.values(compose.services)) {
      for (const value of [svc.image, svc.build?.args?.NODE_IMAGE]) {
        const v = variable(value);
        if (v && v[0].endsWith('_IMAGE') && v[0] !== 'SKIPTRACE_IMAGE') defaults[v[0]] = v[1];
      }
    }
    expect(Object.keys(defaults).sort()).toEqual(['NODE_IMAGE', 'POSTGRES_IMAGE', 'RABBITMQ_IMAGE', 'REDIS_IMAGE']);
    expect(official).toEqual(defaults);
  });
});
