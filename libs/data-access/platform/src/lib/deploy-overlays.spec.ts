import { BlockList, isIPv6 } from 'node:net';
import { OVERLAYS, render, type K8sObject } from './deploy-render';

const SERVICES = ['manifest-api', 'payload-builder', 'dispatcher', 'retry-scheduler', 'notifier'];
/** The services that connect to addresses customers chose: deliveries, and the API's Send tests. */
const FENCED = ['dispatcher', 'manifest-api'];

type Labels = Record<string, string>;
type Selector = { matchLabels?: Labels; matchExpressions?: { key: string; operator: string; values?: string[] }[] };
type Peer = { ipBlock?: { cidr: string; except?: string[] }; podSelector?: Selector; namespaceSelector?: Selector };
type Rule = { to?: Peer[]; from?: Peer[]; ports?: { port?: number | string; protocol?: string }[] };

function selects(selector: Selector, labels: Labels): boolean {
  return Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v)
    && (selector.matchExpressions ?? []).every((e) => {
      if (e.operator === 'In') return (e.values ?? []).includes(labels[e.key]);
      throw new Error(`selector operator ${e.operator} is not read by this test`);
    });
}

function cidr(block: BlockList, range: string): void {
  const [address, prefix] = range.split('/');
  block.addSubnet(address, Number(prefix), isIPv6(address) ? 'ipv6' : 'ipv4');
}

/** Whether an ipBlock peer lets the address through (inside `cidr`, outside every `except`). */
function ipBlockAllows(peer: Peer, address: string): boolean {
  if (!peer.ipBlock) return false;
  const type = isIPv6(address) ? 'ipv6' : 'ipv4';
  const inside = new BlockList();
  cidr(inside, peer.ipBlock.cidr);
  const excepted = new BlockList();
  for (const range of peer.ipBlock.except ?? []) cidr(excepted, range);
  return inside.check(address, type) && !excepted.check(address, type);
}

describe.each(OVERLAYS)('deploy/overlays/%s as kubectl kustomize renders it', (overlay) => {
  const objects = render(overlay);
  const of = (kind: string) => objects.filter((o) => o.kind === kind);
  const deployment = (name: string): K8sObject => {
    const found = of('Deployment').find((d) => d.metadata.name === name);
    if (!found) throw new Error(`no Deployment ${name}`);
    return found;
  };
  const podLabels = (name: string): Labels => deployment(name).spec.template.metadata.labels;

  describe('probes that mean what they say', () => {
    it.each(SERVICES)('%s: liveness asks only whether the process answers, readiness and startup whether it can work', (service) => {
      const container = deployment(service).spec.template.spec.containers[0];
      expect(container.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(container.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
      expect(container.startupProbe.httpGet).toEqual({ path: '/health/startup', port: 'http' });
      // Liveness starts only after startup succeeded; a stuck process is restarted within a minute.
      expect(container.livenessProbe.periodSeconds * container.livenessProbe.failureThreshold).toBeLessThanOrEqual(60);
      // Startup leaves minutes for the first join of the consumer groups.
      expect(container.startupProbe.periodSeconds * container.startupProbe.failureThreshold).toBeGreaterThanOrEqual(180);
    });
  });

  describe('migrations', () => {
    const job = of('Job')[0];
    const image = deployment('dispatcher').spec.template.spec.containers[0].image as string;

    it('runs the migrations in a Job named after the release, deleted a day after it finished, with resources', () => {
      expect(of('Job')).toHaveLength(1);
      expect(job.metadata.name).toBe(`outbound-webhooks-migrate-${image.split(':')[1]}`);
      expect(job.spec.ttlSecondsAfterFinished).toBe(86_400);
      expect(job.spec.activeDeadlineSeconds).toBeGreaterThan(0);
      const pod = job.spec.template.spec;
      for (const c of [...pod.initContainers, ...pod.containers]) {
        expect(c.image).toBe(image);
        expect(c.resources.requests).toBeDefined();
        expect(c.resources.limits.memory).toBeDefined();
      }
    });

    it.each(SERVICES)('%s waits in an init container for the schema version its image needs', (service) => {
      const pod = deployment(service).spec.template.spec;
      expect(pod.initContainers).toHaveLength(1);
      expect(pod.initContainers[0]).toMatchObject({ image, args: [service, 'await-schema'] });
      expect(pod.initContainers[0].resources.limits.memory).toBeDefined();
    });
  });

  describe('network policies', () => {
    const policies = of('NetworkPolicy');
    const applying = (labels: Labels, type: 'Ingress' | 'Egress') =>
      policies.filter((p) => p.spec.policyTypes.includes(type) && selects(p.spec.podSelector, labels));
    const egress = (service: string): Rule[] => applying(podLabels(service), 'Egress').flatMap((p) => p.spec.egress ?? []);
    const allows = (rules: Rule[], address: string, port: number) => rules.some((r) =>
      (!r.ports?.length || r.ports.some((p) => p.port === port)) && (r.to ?? []).some((peer) => ipBlockAllows(peer, address)));

    const INSIDE = [
      '10.96.0.1', '10.244.3.17', '172.20.0.10', '192.168.1.1', '100.100.100.200', '169.254.169.254', '127.0.0.1',
      '0.0.0.0', '192.0.0.192', '::1', 'fd00:ec2::254', 'fe80::1', '::ffff:10.0.0.1', '64:ff9b::a00:1',
    ];

    it.each(FENCED)('%s reaches the public internet on any port but no cluster, private, link-local or metadata address', (service) => {
      const rules = egress(service);
      expect(rules.length).toBeGreaterThan(0);
      for (const [address, port] of [['93.184.216.34', 443], ['8.8.8.8', 8443], ['2606:4700::1111', 443]] as const) {
        expect([address, allows(rules, address, port)]).toEqual([address, true]);
      }
      for (const address of INSIDE) for (const port of [80, 443, 5432, 9092]) expect([address, port, allows(rules, address, port)]).toEqual([address, port, false]);
    });

    it.each(FENCED)('%s reaches DNS, Kafka and PostgreSQL only on their ports, and pods only through port-bound rules', (service) => {
      const rules = egress(service);
      const ports = (rule: Rule) => (rule.ports ?? []).map((p) => p.port);
      const toPods = rules.filter((r) => (r.to ?? []).some((peer) => peer.podSelector || peer.namespaceSelector));
      for (const rule of toPods) expect(ports(rule).length).toBeGreaterThan(0);
      const allPorts = toPods.flatMap(ports);
      expect(allPorts).toEqual(expect.arrayContaining([53, 9092, 5432]));
    });

    it('denies ingress to every pod except the API port, and the services\' ports to the monitoring namespace', () => {
      expect(policies.some((p) => p.spec.policyTypes.includes('Ingress') && Object.keys(p.spec.podSelector).length === 0 && !p.spec.ingress?.length)).toBe(true);
      for (const service of SERVICES) {
        const rules: Rule[] = applying(podLabels(service), 'Ingress').flatMap((p) => p.spec.ingress ?? []);
        for (const rule of rules) expect(rule.ports).toEqual([{ port: 'http' }]);
        const open = rules.filter((r) => !r.from?.length);
        expect([service, open.length > 0]).toEqual([service, service === 'manifest-api']);
        expect(rules.some((r) => (r.from ?? []).some((peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring'))).toBe(true);
      }
    });
  });

  describe('monitoring', () => {
    it('scrapes /metrics of every service\'s Service through a ServiceMonitor that keeps their `service` label', () => {
      const [monitor] = of('ServiceMonitor');
      expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'http', path: '/metrics', honorLabels: true })]);
      const scraped = of('Service').filter((s) => selects(monitor.spec.selector, s.metadata.labels ?? {}));
      expect(scraped.map((s) => s.metadata.name).sort()).toEqual([...SERVICES].sort());
      for (const s of scraped) expect(s.spec.ports.map((p: { name: string }) => p.name)).toContain('http');
    });
  });

  describe('scaling', () => {
    it.each(FENCED)('spreads %s over zones and nodes', (service) => {
      const constraints = deployment(service).spec.template.spec.topologySpreadConstraints as { topologyKey: string; labelSelector: Selector }[];
      expect(constraints.map((c) => c.topologyKey).sort()).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
      for (const c of constraints) expect(selects(c.labelSelector, podLabels(service))).toBe(true);
    });

    it('scales the dispatcher on the attempts in flight per pod, with CPU as a second signal', () => {
      const [hpa] = of('HorizontalPodAutoscaler');
      expect(hpa.spec.scaleTargetRef.name).toBe('dispatcher');
      expect(hpa.spec.metrics).toEqual(expect.arrayContaining([
        expect.objectContaining({ type: 'Pods', pods: expect.objectContaining({ metric: { name: 'owd_dispatch_in_flight' } }) }),
        expect.objectContaining({ type: 'Resource' }),
      ]));
    });
  });
});
