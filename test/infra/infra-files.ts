// Loads the deployment files (k8s/, docker-compose.yml, Dockerfile) for the infra
// tests, with loose types for the fields the tests read.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const k8sDir = join(root, 'k8s');

export type Labels = Record<string, string>;
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
  };
}
export interface Probe {
  httpGet?: { path: string; port: string | number };
}
export interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  securityContext?: {
    runAsNonRoot?: boolean;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[] };
  };
  volumeMounts?: { name: string; mountPath: string }[];
}
export interface PodSpec {
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  topologySpreadConstraints?: { topologyKey: string; labelSelector?: { matchLabels?: Labels } }[];
  containers: Container[];
  volumes?: { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] } }[];
}
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Labels };
  // Each kind has its own spec; tests narrow it with the helpers below.
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
export interface LoadedManifest extends Manifest {
  file: string;
}

export function yamlFiles(): string[] {
  return readdirSync(k8sDir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
}

/** Every document of every YAML file under k8s/ (kustomization.yaml excluded). */
export function loadManifests(): LoadedManifest[] {
  const out: LoadedManifest[] = [];
  for (const file of yamlFiles()) {
    if (file === 'kustomization.yaml') continue;
    for (const doc of parseAllDocuments(readFileSync(join(k8sDir, file), 'utf8'))) {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
      const value = doc.toJS() as Manifest | null;
      if (value !== null) out.push({ ...value, file });
    }
  }
  return out;
}

export function loadYaml<T>(path: string): T {
  return parse(readFileSync(join(root, path), 'utf8'), { merge: true }) as T;
}

export function readText(path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

export interface DeploymentSpec {
  replicas?: number;
  selector: { matchLabels: Labels };
  template: { metadata: { labels: Labels }; spec: PodSpec };
}
export const deploymentSpec = (m: Manifest): DeploymentSpec => m.spec as unknown as DeploymentSpec;

/** True when every label of `selector` is on `labels`. */
export function selects(selector: Labels | undefined, labels: Labels): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}
