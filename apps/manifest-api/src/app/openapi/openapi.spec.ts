import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderOpenApi } from './export-openapi';

const FILE = resolve(__dirname, '../../../../../docs/openapi.json');

describe('docs/openapi.json', () => {
  it('is the document the controllers describe (regenerate: UPDATE_OPENAPI=1 npx jest -c apps/manifest-api/jest.config.cjs openapi)', async () => {
    const current = await renderOpenApi();
    if (process.env['UPDATE_OPENAPI'] === '1') writeFileSync(FILE, current);
    expect(existsSync(FILE)).toBe(true);
    expect(readFileSync(FILE, 'utf8')).toBe(current);
  });

  it('documents every route of the API with problem+json errors', async () => {
    const document = JSON.parse(await renderOpenApi());
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining([
      '/api/workspaces', '/api/workspaces/{workspaceId}/tokens', '/api/workspaces/{workspaceId}/tokens/{tokenId}',
      '/api/goals', '/api/goals/{goalId}', '/api/goals/{goalId}/secret', '/api/goals/{goalId}/results',
      '/api/results/{resultId}', '/api/results/{resultId}/content', '/api/results/{resultId}/approve',
      '/api/results/{resultId}/fields', '/api/results/{resultId}/retry',
      '/api/goals/{goalId}/target-manifest', '/api/goals/{goalId}/contract',
      '/api/me', '/api/results/{resultId}/revisions', '/api/results/{resultId}/attempts', '/api/workspaces/{workspaceId}',
    ]));
    expect(document.paths['/api/goals'].post.responses['401'].content['application/problem+json']).toBeDefined();
    expect(JSON.stringify(document)).not.toContain('/health');
  });

  describe('as a reference people read', () => {
    type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a JSON document
    let document: Json;
    const operations = (): [string, Json][] => Object.entries(document['paths'] as Json)
      .flatMap(([path, item]) => Object.entries(item as Json).map(([method, op]): [string, Json] => [`${method.toUpperCase()} ${path}`, op]));
    const lacking = (check: (op: Json) => boolean) => operations().filter(([, op]) => !check(op)).map(([name]) => name);
    const hasExample = (media: Json | undefined) => media !== undefined && (media['example'] !== undefined || media['examples'] !== undefined);

    beforeAll(async () => {
      document = JSON.parse(await renderOpenApi());
    });

    it('gives every operation a summary and a description', () => {
      expect(lacking((op) => typeof op['summary'] === 'string' && op['summary'].length > 0)).toEqual([]);
      expect(lacking((op) => typeof op['description'] === 'string' && op['description'].length > 0)).toEqual([]);
    });

    it('documents 500 and 503 (with Retry-After) as problem+json on every operation', () => {
      expect(lacking((op) => ['500', '503'].every((s) => op['responses'][s]?.content?.['application/problem+json']))).toEqual([]);
      expect(lacking((op) => op['responses']['503'].headers?.['Retry-After'] !== undefined)).toEqual([]);
    });

    it('has an example for every request body and every success answer with a body', () => {
      expect(lacking((op) => !op['requestBody'] || hasExample(op['requestBody'].content['application/json']))).toEqual([]);
      expect(lacking((op) => Object.entries(op['responses'] as Json)
        .filter(([status, response]) => status.startsWith('2') && response.content)
        .every(([, response]) => Object.values(response.content as Json).every(hasExample)))).toEqual([]);
    });

    it('names its servers and describes the bearer tokens as opaque, not JWT', () => {
      expect(document['servers']).toEqual(expect.arrayContaining([expect.objectContaining({ url: expect.stringMatching(/^https?:\/\//) })]));
      for (const scheme of Object.values(document['components']['securitySchemes'] as Json)) {
        expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque' });
      }
    });

    it('types every path id: a uuid format, or the pattern of a result id', () => {
      const untyped = operations().flatMap(([name, op]) => ((op['parameters'] ?? []) as Json[])
        .filter((p) => p['in'] === 'path' && !(p['schema']['format'] === 'uuid' || p['schema']['pattern']))
        .map((p) => `${name} ${p['name']}`));
      expect(untyped).toEqual([]);
      expect(document['paths']['/api/goals/{goalId}']['get']['parameters'][0]['schema']).toEqual({ type: 'string', format: 'uuid' });
    });

    it('declares no property as a bare object (a `string | null` without `type: String` is reflected as one)', () => {
      const bare = Object.entries(document['components']['schemas'] as Json).flatMap(([schema, { properties }]) =>
        Object.entries((properties ?? {}) as Json)
          .filter(([, p]) => p['type'] === 'object' && !p['properties'] && !p['additionalProperties'] && !p['allOf'])
          .map(([property]) => `${schema}.${property}`));
      expect(bare).toEqual([]);
      expect(document['components']['schemas']['SendTestReportView']['properties']['errorClass']).toMatchObject({ type: 'string', nullable: true });
    });
  });
});
