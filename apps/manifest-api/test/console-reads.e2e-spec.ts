import { articleContent, NEW_ARTICLE } from './support/fixtures';
import { createWorkspace, startTestApp, type TestApp } from './support/test-app';

/** The two reads the web console adds to the API: who the token is, and a result's revision history. */
describe('manifest-api reads for the web console', () => {
  let t: TestApp;
  let ws: { workspaceId: string; token: string; tokenId: string };

  beforeAll(async () => {
    t = await startTestApp();
    ws = await createWorkspace(t, 'Newsroom');
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('GET /api/me', () => {
    it('names the calling token and its workspace, never the token itself', async () => {
      const res = await t.request('GET', '/api/me', { token: ws.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        workspace: { id: ws.workspaceId, name: 'Newsroom', createdAt: expect.any(String) },
        token: {
          id: ws.tokenId, workspaceId: ws.workspaceId, name: 'ci', prefix: ws.token.slice(0, 12), createdAt: expect.any(String),
          lastUsedAt: expect.any(String), revokedAt: null,
        },
      });
      expect(res.text).not.toContain(ws.token);
    });

    it('answers 401 without a token and 403 to the admin token, as problem+json', async () => {
      const anonymous = await t.request('GET', '/api/me');
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('content-type')).toContain('application/problem+json');
      const admin = await t.request('GET', '/api/me', { token: t.adminToken });
      expect(admin.status).toBe(403);
      expect(admin.body).toMatchObject({ type: 'https://owd.dev/problems/forbidden', status: 403 });
    });
  });

  describe('GET /api/results/{id}/revisions', () => {
    it('lists every revision oldest first: the first version, a text change, a new cluster version', async () => {
      const goal = await t.request('POST', '/api/goals', { token: ws.token, body: { name: 'Economy', sourceLang: 'en' } });
      const first = await t.request('POST', `/api/goals/${goal.body.id}/results`, { token: ws.token, body: articleContent() });
      const id: string = first.body.id;
      const text = await t.request('PUT', `/api/results/${id}/content`, { token: ws.token, body: articleContent({ title: 'Grain prices fall again' }) });
      const cluster = await t.request('PUT', `/api/results/${id}/content`, {
        token: ws.token,
        body: articleContent({ title: 'Grain prices fall again', articles: [...(articleContent()['articles'] as object[]), NEW_ARTICLE], newArticles: [NEW_ARTICLE.id] }),
      });
      expect([first.status, text.status, cluster.status]).toEqual([201, 200, 200]);

      const res = await t.request('GET', `/api/results/${id}/revisions`, { token: ws.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { revision: 1, workflowExecution: id, parentExecution: null, textOnlyChange: false, newArticles: [], title: 'Grain prices fall for a third week', resendOf: null, createdAt: expect.any(String) },
        { revision: 2, workflowExecution: text.body.workflowExecution, parentExecution: null, textOnlyChange: true, newArticles: [], title: 'Grain prices fall again', resendOf: null, createdAt: expect.any(String) },
        {
          revision: 3, workflowExecution: cluster.body.workflowExecution, parentExecution: text.body.workflowExecution, textOnlyChange: false,
          newArticles: [NEW_ARTICLE.id], title: 'Grain prices fall again', resendOf: null, createdAt: expect.any(String),
        },
      ]);
    });

    it('answers 404 for another workspace’s result and for an id that cannot exist', async () => {
      const goal = await t.request('POST', '/api/goals', { token: ws.token, body: { name: 'Politics', sourceLang: 'en' } });
      const result = await t.request('POST', `/api/goals/${goal.body.id}/results`, { token: ws.token, body: articleContent() });
      const other = await createWorkspace(t, 'Elsewhere');
      const foreign = await t.request('GET', `/api/results/${result.body.id}/revisions`, { token: other.token });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ type: 'https://owd.dev/problems/not-found' });
      expect((await t.request('GET', '/api/results/res_nope/revisions', { token: ws.token })).status).toBe(404);
    });
  });
});
