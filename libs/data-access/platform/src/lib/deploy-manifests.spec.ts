import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ALL_TOPICS, deadLetterTopic, TOPIC_MAX_MESSAGE_BYTES } from '@owd/events';

const root = resolve(__dirname, '../../../../..');
const base = resolve(root, 'deploy/base');
const SERVICES = ['manifest-api', 'payload-builder', 'dispatcher', 'retry-scheduler', 'notifier'];

type Doc = { kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- Kubernetes objects are read as loose YAML

function load(): Doc[] {
  const kustomization = parseAllDocuments(readFileSync(resolve(base, 'kustomization.yaml'), 'utf8'))[0].toJSON() as { resources: string[] };
  return kustomization.resources.flatMap((file) =>
    parseAllDocuments(readFileSync(resolve(base, file), 'utf8')).map((d) => d.toJSON() as Doc));
}

/** The kustomize base (deploy/base) holds what an operator needs for every service, and nothing drifts. */
describe('deploy/base', () => {
  const docs = load();
  const of = (kind: string) => docs.filter((d) => d.kind === kind);

  it.each(SERVICES)('runs %s with probes on /health/*, limits, a locked-down container and time to drain', (service) => {
    const deployment = of('Deployment').find((d) => d.metadata.name === service);
    const pod = deployment?.spec.template.spec;
    const container = pod.containers[0];
    expect(container.startupProbe.httpGet.path).toBe('/health/startup');
    expect(container.readinessProbe.httpGet.path).toBe('/health/ready');
    expect(container.livenessProbe.httpGet.path).toBe('/health/live');
    expect(container.resources.requests).toBeDefined();
    expect(container.resources.limits.memory).toBeDefined();
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    // Longer than one 30 s attempt, so SIGTERM can finish the attempts in flight.
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(30);
    expect(of('Service').map((d) => d.metadata.name)).toContain(service);
    expect(of('PodDisruptionBudget').map((d) => d.metadata.name)).toContain(service);
  });

  it('migrates every service in the Job of the release', () => {
    const job = of('Job')[0].spec.template.spec;
    const args = [...job.initContainers, ...job.containers].map((c: { args: string[] }) => c.args.join(' '));
    expect(args.sort()).toEqual(SERVICES.map((s) => `${s} migrate`).sort());
  });

  it('declares a KafkaTopic for every topic and its dead-letter twin, and nothing else', () => {
    const declared = of('KafkaTopic').map((d) => d.spec.topicName).sort();
    expect(declared).toEqual(ALL_TOPICS.flatMap((t) => [t, deadLetterTopic(t)]).sort());
  });

  it('lets every topic take the largest event the services write (TOPIC_MAX_MESSAGE_BYTES), as ensureTopics does', () => {
    for (const topic of of('KafkaTopic')) expect([topic.spec.topicName, topic.spec.config['max.message.bytes']]).toEqual([topic.spec.topicName, TOPIC_MAX_MESSAGE_BYTES]);
  });

  it('autoscales the dispatcher', () => {
    expect(of('HorizontalPodAutoscaler')[0].spec.scaleTargetRef.name).toBe('dispatcher');
  });

  it('documents every configuration key of the ConfigMap in docs/operations.md', () => {
    const doc = readFileSync(resolve(root, 'docs/operations.md'), 'utf8');
    for (const key of Object.keys(of('ConfigMap')[0].data ?? {})) expect(doc).toContain(`\`${key}\``);
  });

  it('documents every variable a Deployment sets for its own service in docs/operations.md', () => {
    const doc = readFileSync(resolve(root, 'docs/operations.md'), 'utf8');
    const names = of('Deployment').flatMap((d) => d.spec.template.spec.containers
      .flatMap((c: { env?: { name: string }[] }) => (c.env ?? []).map((e) => e.name)));
    expect(names).toContain('SERVICE_V8_FLAGS');
    for (const name of new Set(names)) expect(doc).toContain(`\`${name}\``);
  });

  it('gives the image entrypoint a Deployment\'s own V8 flags after the ConfigMap\'s, so its value wins', () => {
    const entrypoint = readFileSync(resolve(root, 'deploy/docker/entrypoint.sh'), 'utf8');
    expect(entrypoint).toMatch(/exec node \$\{V8_FLAGS:-\} \$\{SERVICE_V8_FLAGS:-\} /);
  });
});
