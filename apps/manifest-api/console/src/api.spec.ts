import { Api } from './api';

const goal = (n: number) => ({ id: `goal-${n}`, name: `Goal ${n}` });

/** Answers the console's requests from `pages` (by URL), recording the URLs asked for. */
function serve(pages: Record<string, unknown>): string[] {
  const asked: string[] = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    asked.push(url);
    if (!(url in pages)) return new Response('{}', { status: 404 });
    return new Response(JSON.stringify(pages[url]), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  return asked;
}

describe('console API client and the list envelope', () => {
  afterEach(() => jest.restoreAllMocks());

  it('reads every goal by following nextCursor to the last page', async () => {
    const asked = serve({
      '/api/goals?limit=100': { data: [goal(1), goal(2)], nextCursor: 'c/1+' },
      '/api/goals?limit=100&cursor=c%2F1%2B': { data: [goal(3)], nextCursor: null },
    });
    expect((await new Api('owd_x').goals()).map((g) => g.id)).toEqual(['goal-1', 'goal-2', 'goal-3']);
    expect(asked).toHaveLength(2);
  });

  it('shows the first page of a goal\'s results, newest first as the API sends them', async () => {
    serve({ '/api/goals/g1/results?limit=50': { data: [{ id: 'res_b' }, { id: 'res_a' }], nextCursor: 'more' } });
    expect((await new Api('owd_x').results('g1')).map((r) => r.id)).toEqual(['res_b', 'res_a']);
  });
});
