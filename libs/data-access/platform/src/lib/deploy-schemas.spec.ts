import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { render, REPO_ROOT as root, type K8sObject } from './deploy-render';

/** Fetched by tools/k8s-schemas/pom.xml from Maven Central (see there), kept in the git-ignored .local/. */
const SCHEMAS = resolve(root, '.local/k8s-schemas');
const OPENAPI = resolve(SCHEMAS, 'openapi/openshift-generated.json');
const KAFKA_TOPIC_CRD = resolve(SCHEMAS, 'crds/v1beta2/043-Crd-kafkatopic.yaml');
const OPENAPI_ID = 'urn:kubernetes:openapi';
const OBJECT_META = `${OPENAPI_ID}#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`;
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

type Schema = Record<string, unknown>;
type Crd = { spec: { group: string; names: { kind: string }; versions: { name: string; served: boolean; schema: { openAPIV3Schema: Schema } }[] } };

function ensureSchemas(): void {
  if (existsSync(OPENAPI) && existsSync(KAFKA_TOPIC_CRD)) return;
  execFileSync('mvn', ['-B', '-q', '-f', 'tools/k8s-schemas/pom.xml', 'dependency:unpack'], { cwd: root, stdio: 'inherit' });
}

const mapValues = (map: unknown, f: (v: unknown) => unknown) =>
  Object.fromEntries(Object.entries(map as Schema).map(([k, v]) => [k, f(v)]));

/**
 * The strict reading that `kubectl apply` asks of the API server (field validation Strict): an object
 * with declared properties takes no others unless it is marked x-kubernetes-preserve-unknown-fields, and
 * an int-or-string takes either type. The x- annotations are dropped once read.
 */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Schema;
  if (node['format'] === 'int-or-string' || node['x-kubernetes-int-or-string'] === true) return { type: ['integer', 'string'] };
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-')) continue;
    if (key === 'properties' || key === 'definitions') out[key] = mapValues(value, strict);
    else if (key === 'default' || key === 'enum' || key === 'example') out[key] = value;
    else out[key] = strict(value);
  }
  if (out['properties'] && out['additionalProperties'] === undefined && node['x-kubernetes-preserve-unknown-fields'] !== true) {
    out['additionalProperties'] = false;
  }
  return out;
}

/**
 * Validates Kubernetes objects with ajv against the OpenAPI document of a Kubernetes 1.33 API server and
 * custom resources against their CRD's openAPIV3Schema, both read strictly (see strict()).
 */
class ManifestValidator {
  private readonly ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
  private readonly custom = new Map<string, ValidateFunction>();

  constructor(openapi: { definitions: Schema }, crds: Crd[]) {
    addFormats(this.ajv);
    const definitions = strict(openapi.definitions) as Schema;
    // A Quantity is a string or a number (the server's OpenAPI v3 says so; v2 only says string).
    definitions[QUANTITY] = { type: ['string', 'number'] };
    this.ajv.addSchema({ $id: OPENAPI_ID, definitions });
    for (const crd of crds) {
      for (const version of crd.spec.versions.filter((v) => v.served)) {
        const schema = strict(version.schema.openAPIV3Schema) as { properties: Schema };
        // The API server checks a custom resource's metadata as the ObjectMeta of every object.
        schema.properties['metadata'] = { $ref: OBJECT_META };
        this.custom.set(`${crd.spec.group}/${version.name}/${crd.spec.names.kind}`, this.ajv.compile(schema));
      }
    }
  }

  /** What is wrong with the object, one line per problem; empty when it is valid. */
  problems(object: K8sObject): string[] {
    const validate = this.custom.get(`${object.apiVersion}/${object.kind}`) ?? this.builtIn(object);
    if (!validate) return [`no schema for ${object.apiVersion} ${object.kind}`];
    return validate(object) ? [] : (validate.errors ?? []).map(explain);
  }

  /**
   * apps/v1 Deployment -> io.k8s.api.apps.v1.Deployment, v1 Service -> io.k8s.api.core.v1.Service; the
   * Prometheus Operator's kinds, which the document also holds: monitoring.coreos.com/v1 ServiceMonitor ->
   * com.coreos.monitoring.v1.ServiceMonitor. Only GA versions: the document also keeps the types of beta
   * versions that 1.33 no longer serves (apps/v1beta1, policy/v1beta1, ...), and no GA version has ever been removed.
   */
  private builtIn({ apiVersion, kind }: K8sObject): ValidateFunction | undefined {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['core', apiVersion];
    if (!/^v\d+$/.test(version)) return undefined;
    const prefix = group === 'monitoring.coreos.com' ? 'com.coreos.monitoring' : `io.k8s.api.${group.replace(/\.k8s\.io$/, '').split('.')[0]}`;
    const name = `${prefix}.${version}.${kind}`;
    return this.ajv.getSchema(`${OPENAPI_ID}#/definitions/${name}`);
  }
}

function explain(error: ErrorObject): string {
  const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params['additionalProperty'])})` : '';
  return `${error.instancePath || '/'} ${error.message ?? error.keyword}${extra}`;
}

describe('deploy/overlays against the Kubernetes 1.33, Prometheus Operator and Strimzi 0.49 schemas', () => {
  let validator: ManifestValidator;
  const rendered = new Map<string, K8sObject[]>();
  const copyOf = (kind: string, name: string): K8sObject =>
    structuredClone(rendered.get('production')?.find((o) => o.kind === kind && o.metadata.name === name) as K8sObject);

  beforeAll(() => {
    ensureSchemas();
    const crd = parse(readFileSync(KAFKA_TOPIC_CRD, 'utf8')) as Crd;
    validator = new ManifestValidator(JSON.parse(readFileSync(OPENAPI, 'utf8')), [crd]);
    for (const overlay of ['local', 'production']) rendered.set(overlay, render(overlay));
  }, 180_000);

  it.each(['local', 'production'])('renders the %s overlay into objects that all pass their schema', (overlay) => {
    const objects = rendered.get(overlay) ?? [];
    expect(new Set(objects.map((o) => o.kind))).toEqual(
      new Set(['ConfigMap', 'Service', 'Deployment', 'PodDisruptionBudget', 'HorizontalPodAutoscaler', 'Job', 'KafkaTopic',
        'NetworkPolicy', 'ServiceMonitor', 'PrometheusRule']),
    );
    expect(objects.flatMap((o) => validator.problems(o).map((p) => `${o.kind}/${o.metadata.name}: ${p}`))).toEqual([]);
  });

  it('rejects a Deployment with a misspelled field', () => {
    const deployment = copyOf('Deployment', 'dispatcher');
    const pod = deployment.spec.template.spec;
    pod.terminationGracePeriodSecond = pod.terminationGracePeriodSeconds;
    delete pod.terminationGracePeriodSeconds;
    expect(validator.problems(deployment)).toEqual([
      '/spec/template/spec must NOT have additional properties (terminationGracePeriodSecond)',
    ]);
  });

  it('rejects a Deployment with a string where an integer belongs', () => {
    const deployment = copyOf('Deployment', 'dispatcher');
    deployment.spec.replicas = '2';
    deployment.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    expect(validator.problems(deployment)).toEqual([
      '/spec/replicas must be integer',
      '/spec/template/spec/containers/0/ports/0/containerPort must be integer',
    ]);
  });

  it('takes an int-or-string field in either form, and nothing else there', () => {
    const budget = copyOf('PodDisruptionBudget', 'dispatcher');
    for (const value of [1, '25%']) expect(validator.problems({ ...budget, spec: { ...budget.spec, maxUnavailable: value } })).toEqual([]);
    expect(validator.problems({ ...budget, spec: { ...budget.spec, maxUnavailable: true } })).toEqual([
      '/spec/maxUnavailable must be integer,string',
    ]);
  });

  it('rejects a KafkaTopic with an unknown field or a wrong type, but takes any topic config key', () => {
    const topic = copyOf('KafkaTopic', 'result-revised');
    expect(validator.problems({ ...topic, spec: { ...topic.spec, config: { 'cleanup.policy': 'compact' } } })).toEqual([]);
    expect(validator.problems({ ...topic, spec: { ...topic.spec, partition: 6, replicas: 'three' } })).toEqual([
      '/spec must NOT have additional properties (partition)',
      '/spec/replicas must be integer',
    ]);
    expect(validator.problems({ ...topic, metadata: { ...topic.metadata, label: {} } } as K8sObject)).toEqual([
      '/metadata must NOT have additional properties (label)',
    ]);
  });

  it('rejects a PrometheusRule or ServiceMonitor with a misspelled field', () => {
    const rules = copyOf('PrometheusRule', 'outbound-webhooks');
    const rule = rules.spec.groups[0].rules[0];
    rule.expression = rule.expr;
    delete rule.expr;
    expect(validator.problems(rules)).toEqual(['/spec/groups/0/rules/0 must have required property \'expr\'', '/spec/groups/0/rules/0 must NOT have additional properties (expression)']);
    const monitor = copyOf('ServiceMonitor', 'outbound-webhooks');
    monitor.spec.endpoints[0].honourLabels = true;
    expect(validator.problems(monitor)).toEqual(['/spec/endpoints/0 must NOT have additional properties (honourLabels)']);
  });

  it('rejects an object whose API version or kind has no schema', () => {
    expect(validator.problems({ ...copyOf('Deployment', 'dispatcher'), apiVersion: 'apps/v1beta1' })).toEqual([
      'no schema for apps/v1beta1 Deployment',
    ]);
    expect(validator.problems({ ...copyOf('KafkaTopic', 'result-revised'), kind: 'KafkaTopics' })).toEqual([
      'no schema for kafka.strimzi.io/v1beta2 KafkaTopics',
    ]);
  });
});
