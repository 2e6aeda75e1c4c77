// What `kubectl kustomize k8s` renders, validated against the Kubernetes, KEDA and
// Prometheus Operator schemas; the NetworkPolicies evaluated for the traffic that matters
// (no cluster here: a small evaluator of the policies' pod selectors, ports and ipBlocks).
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { BlockList, isIPv4 } from 'node:net';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { k8sDir, loadYaml, root } from './infra-files.ts';

interface Obj {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
}
type Model = new (data: unknown) => { validate(): void };
const MODELS: Record<string, string> = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'policy/v1': 'kubernetes-models/policy/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
  'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};

const rendered = execFileSync('kubectl', ['kustomize', k8sDir], { encoding: 'utf8' });
const objects = parseAllDocuments(rendered).map((d) => d.toJS() as Obj);
const of = (kind: string) => objects.filter((o) => o.kind === kind);

describe('kubectl kustomize k8s', () => {
  it('renders objects that validate against their schemas, all in the skiptrace namespace', async () => {
    expect(objects.length).toBeGreaterThan(15);
    for (const o of objects) {
      const module = MODELS[o.apiVersion];
      if (!module) throw new Error(`no schema for ${o.apiVersion} (${o.kind} ${o.metadata.name})`);
      const Model = ((await import(module)) as Record<string, Model>)[o.kind];
      if (!Model) throw new Error(`no schema for ${o.apiVersion} ${o.kind}`);
      expect(() => new Model(o).validate()).not.toThrow();
      if (o.kind !== 'Namespace')
        expect({ name: o.metadata.name, ns: o.metadata.namespace }).toEqual({ name: o.metadata.name, ns: 'skiptrace' });
    }
    expect(of('NetworkPolicy').length).toBeGreaterThan(3);
    expect(of('PodMonitor')).toHaveLength(1);
  });

  it('ships the alerting rules of deploy/monitoring/alerts.yaml as the PrometheusRule', () => {
    const alerts = loadYaml<{ groups: unknown[] }>(join('deploy', 'monitoring', 'alerts.yaml'));
    expect(of('PrometheusRule')[0]?.spec?.groups).toEqual(alerts.groups);
  });

  it('scrapes every pod through a named port it has, with the metrics token from the Secret', () => {
    const monitor = of('PodMonitor')[0]!.spec as {
      podMetricsEndpoints: { port: string; path: string; authorization: { credentials: { key: string } } }[];
    };
    const secret = loadYaml<{ stringData: Record<string, string> }>('k8s/secret.template.yaml');
    const portNames = new Set(monitor.podMetricsEndpoints.map((e) => e.port));
    for (const d of of('Deployment')) {
      const ports = podOf(d)
        .containers.flatMap((c) => c.ports ?? [])
        .map((p) => p.name ?? '');
      const env = podOf(d).containers[0]!.env ?? [];
      expect(env.find((e) => e.name === 'METRICS_TOKEN')?.valueFrom?.secretKeyRef?.key).toBe('metrics-token');
      expect({ d: d.metadata.name, scraped: ports.some((p) => portNames.has(p)) }).toEqual({
        d: d.metadata.name,
        scraped: true,
      });
    }
    for (const e of monitor.podMetricsEndpoints) {
      expect(e.path).toBe('/metrics');
      expect(e.authorization.credentials.key in secret.stringData).toBe(true);
    }
  });
});

// ---- NetworkPolicy evaluation -------------------------------------------------------

interface Peer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
interface Rule {
  to?: Peer[];
  from?: Peer[];
  ports?: { protocol?: string; port?: number | string }[];
}
interface PodSpecLite {
  containers: {
    ports?: { name?: string; containerPort: number }[];
    env?: { name: string; valueFrom?: { secretKeyRef?: { key: string } } }[];
  }[];
}
const podOf = (d: Obj) => (d.spec as { template: { spec: PodSpecLite } }).template.spec;
const podLabels = (d: Obj) =>
  (d.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;

function selects(selector: Selector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = e.values?.includes(labels[e.key] ?? '') ?? false;
    if (e.operator === 'In' && !has) return false;
    if (e.operator === 'NotIn' && has) return false;
  }
  return true;
}

/** A destination: another pod (labels + namespace labels) or an IP outside the cluster. */
type Target =
  | { pod: Record<string, string>; namespace: Record<string, string>; port: number; portName?: string }
  | { ip: string; port: number };

function inBlock(ip: string, block: { cidr: string; except?: string[] }): boolean {
  const list = (cidrs: string[]) => {
    const b = new BlockList();
    for (const c of cidrs) {
      const [net, bits] = c.split('/');
      b.addSubnet(net!, Number(bits), isIPv4(net!) ? 'ipv4' : 'ipv6');
    }
    return b;
  };
  const family = isIPv4(ip) ? 'ipv4' : 'ipv6';
  if (isIPv4(block.cidr.split('/')[0]!) !== (family === 'ipv4')) return false;
  return list([block.cidr]).check(ip, family) && !list(block.except ?? []).check(ip, family);
}

function peerMatches(peer: Peer, target: Target): boolean {
  if ('ip' in target) return peer.ipBlock ? inBlock(target.ip, peer.ipBlock) : false;
  if (peer.ipBlock) return false;
  const sameNamespace = !peer.namespaceSelector;
  const nsOk = sameNamespace
    ? target.namespace['kubernetes.io/metadata.name'] === 'skiptrace'
    : selects(peer.namespaceSelector, target.namespace);
  return nsOk && selects(peer.podSelector, target.pod);
}

function portMatches(rule: Rule, port: number, portName?: string): boolean {
  if (!rule.ports?.length) return true;
  return rule.ports.some(
    (p) => p.port === undefined || p.port === port || (portName !== undefined && p.port === portName),
  );
}

const policies = of('NetworkPolicy').map(
  (p) => p.spec as { podSelector: Selector; policyTypes: string[]; egress?: Rule[]; ingress?: Rule[] },
);

function egressAllowed(from: Record<string, string>, target: Target): boolean {
  const applying = policies.filter((p) => p.policyTypes.includes('Egress') && selects(p.podSelector, from));
  if (applying.length === 0) return true;
  return applying.some((p) =>
    (p.egress ?? []).some(
      (r) =>
        portMatches(r, target.port, 'pod' in target ? target.portName : undefined) &&
        (!r.to || r.to.some((peer) => peerMatches(peer, target))),
    ),
  );
}

function ingressAllowed(
  to: Record<string, string>,
  source: { pod: Record<string, string>; namespace: Record<string, string> },
  port: number,
  portName: string,
): boolean {
  const applying = policies.filter((p) => p.policyTypes.includes('Ingress') && selects(p.podSelector, to));
  if (applying.length === 0) return true;
  return applying.some((p) =>
    (p.ingress ?? []).some(
      (r) =>
        portMatches(r, port, portName) &&
        (!r.from || r.from.some((peer) => peerMatches(peer, { ...source, port, portName }))),
    ),
  );
}

const ns = (name: string) => ({ 'kubernetes.io/metadata.name': name });
const deployments = Object.fromEntries(of('Deployment').map((d) => [d.metadata.name, podLabels(d)]));
const portOf = (name: string) => {
  const p = podOf(of('Deployment').find((d) => d.metadata.name === name)!).containers[0]!.ports![0]!;
  return { port: p.containerPort, portName: p.name };
};

describe('NetworkPolicies', () => {
  it('deny by default: a policy selects every pod for ingress and egress with no rules', () => {
    expect(
      policies.some(
        (p) => Object.keys(p.podSelector).length === 0 && p.policyTypes.length === 2 && !p.egress && !p.ingress,
      ),
    ).toBe(true);
  });

  it('let only the dispatcher reach public addresses, on 80 and 443 only', () => {
    for (const [name, labels] of Object.entries(deployments)) {
      const isDispatcher = name === 'dispatcher';
      for (const ip of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']) {
        expect({ name, ip, https: egressAllowed(labels, { ip, port: 443 }) }).toEqual({
          name,
          ip,
          https: isDispatcher,
        });
        expect({ name, ip, http: egressAllowed(labels, { ip, port: 80 }) }).toEqual({ name, ip, http: isDispatcher });
      }
      expect({ name, ssh: egressAllowed(labels, { ip: '93.184.215.14', port: 22 }) }).toEqual({ name, ssh: false });
    }
  });

  it('never let the dispatcher reach private, link-local or metadata addresses on 80/443', () => {
    const dispatcher = deployments.dispatcher!;
    for (const ip of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '127.0.0.1',
      '100.64.0.10',
      'fd00::1',
      'fe80::1',
      '::1',
    ]) {
      for (const port of [80, 443])
        expect({ ip, port, allowed: egressAllowed(dispatcher, { ip, port }) }).toEqual({ ip, port, allowed: false });
    }
  });

  it('let every pod resolve names and reach the stores', () => {
    const dns = { pod: { 'k8s-app': 'kube-dns' }, namespace: ns('kube-system') };
    for (const [name, labels] of Object.entries(deployments)) {
      expect({ name, dns: egressAllowed(labels, { ...dns, port: 53 }) }).toEqual({ name, dns: true });
      for (const port of [5432, 5672, 6379])
        expect({ name, port, ok: egressAllowed(labels, { ip: '10.20.0.5', port }) }).toEqual({ name, port, ok: true });
    }
  });

  it('let the gateway fetch the JWKS from auth inside the cluster, and the ingress controller reach gateway and auth only', () => {
    const auth = portOf('auth');
    expect(egressAllowed(deployments.gateway!, { pod: deployments.auth!, namespace: ns('skiptrace'), ...auth })).toBe(
      true,
    );
    expect(
      ingressAllowed(
        deployments.auth!,
        { pod: deployments.gateway!, namespace: ns('skiptrace') },
        auth.port,
        auth.portName!,
      ),
    ).toBe(true);
    const controller = { pod: { 'app.kubernetes.io/name': 'ingress-nginx' }, namespace: ns('ingress-nginx') };
    for (const [name, labels] of Object.entries(deployments)) {
      const { port, portName } = portOf(name);
      expect({ name, public: ingressAllowed(labels, controller, port, portName!) }).toEqual({
        name,
        public: name === 'gateway' || name === 'auth',
      });
      const prometheus = { pod: { 'app.kubernetes.io/name': 'prometheus' }, namespace: ns('monitoring') };
      expect({ name, scraped: ingressAllowed(labels, prometheus, port, portName!) }).toEqual({ name, scraped: true });
      const stranger = { pod: { app: 'other' }, namespace: ns('default') };
      expect({ name, stranger: ingressAllowed(labels, stranger, port, portName!) }).toEqual({ name, stranger: false });
    }
    expect(root).toBeTruthy();
  });
});
