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
      '/api/me', '/api/results/{resultId}/revisions',
    ]));
    expect(document.paths['/api/goals'].post.responses['401'].content['application/problem+json']).toBeDefined();
    expect(JSON.stringify(document)).not.toContain('/health');
  });
});
