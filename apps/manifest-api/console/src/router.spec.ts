import { href, parseRoute, type Route } from './router';

const GOAL = '5b0f6a8e-1c2d-4e3f-8a9b-0c1d2e3f4a5b';
const RESULT = 'res_0123456789abcdef0123456789abcdef';

describe('console routes', () => {
  it('reads every page from the URL fragment, the first tab of a page without a segment', () => {
    expect(parseRoute('')).toEqual({ page: 'goals' });
    expect(parseRoute('#/goals')).toEqual({ page: 'goals' });
    expect(parseRoute('#/failed')).toEqual({ page: 'failed' });
    expect(parseRoute(`#/goals/${GOAL}`)).toEqual({ page: 'goal', goalId: GOAL, tab: 'action' });
    expect(parseRoute(`#/goals/${GOAL}/results`)).toEqual({ page: 'goal', goalId: GOAL, tab: 'results' });
    expect(parseRoute(`#/goals/${GOAL}/contract`)).toEqual({ page: 'goal', goalId: GOAL, tab: 'contract' });
    expect(parseRoute(`#/results/${RESULT}`)).toEqual({ page: 'result', resultId: RESULT, tab: 'status' });
    expect(parseRoute(`#/results/${RESULT}/delivery`)).toEqual({ page: 'result', resultId: RESULT, tab: 'delivery' });
  });

  it('answers not-found for unknown pages, unknown tabs, extra segments and broken escapes', () => {
    for (const hash of ['#/tokens', '#/failed/x', `#/goals/${GOAL}/secret`, `#/goals/${GOAL}/action`, `#/results/${RESULT}/delivery/x`, '#/goals/%E0%A4%A', '#/goals//results']) {
      expect(parseRoute(hash)).toEqual({ page: 'not-found', hash });
    }
  });

  it('writes fragments that read back as the same route, escaping ids', () => {
    const routes: Exclude<Route, { page: 'not-found' }>[] = [
      { page: 'goals' }, { page: 'failed' }, { page: 'goal', goalId: GOAL, tab: 'action' }, { page: 'goal', goalId: GOAL, tab: 'contract' },
      { page: 'result', resultId: RESULT, tab: 'status' }, { page: 'result', resultId: 'a/b c', tab: 'delivery' },
    ];
    for (const route of routes) expect(parseRoute(href(route))).toEqual(route);
    expect(href({ page: 'result', resultId: 'a/b c', tab: 'status' })).toBe('#/results/a%2Fb%20c');
  });
});
