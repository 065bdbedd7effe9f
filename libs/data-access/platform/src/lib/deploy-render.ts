import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** Test support of the deploy specs (not exported by the library). */
export const REPO_ROOT = resolve(__dirname, '../../../../..');
export const OVERLAYS = ['local', 'production'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kubernetes objects are read as loose YAML
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; spec?: any; data?: Record<string, string> };

/** The overlay as an operator applies it: `kubectl kustomize` (kustomize as built into kubectl). */
export function render(overlay: string): K8sObject[] {
  const kubectl = process.env['KUBECTL'] ?? 'kubectl';
  if (!existsSync(kubectl) && spawnSync(kubectl, ['version', '--client'], { stdio: 'ignore' }).error) {
    throw new Error(`rendering deploy/overlays needs kubectl (kubectl kustomize): install it or set KUBECTL`);
  }
  const yaml = execFileSync(kubectl, ['kustomize', `deploy/overlays/${overlay}`], { cwd: REPO_ROOT, encoding: 'utf8' });
  return parseAllDocuments(yaml).map((d) => d.toJSON() as K8sObject);
}
