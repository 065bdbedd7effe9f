export const GOAL_TABS = ['action', 'results', 'contract'] as const;
export type GoalTab = (typeof GOAL_TABS)[number];
export const RESULT_TABS = ['status', 'delivery'] as const;
export type ResultTab = (typeof RESULT_TABS)[number];

/** Pages are addressed by the URL fragment, so reloading keeps the page; the token never appears in a URL. */
export type Route =
  | { page: 'goals' }
  | { page: 'failed' }
  | { page: 'goal'; goalId: string; tab: GoalTab }
  | { page: 'result'; resultId: string; tab: ResultTab }
  | { page: 'not-found'; hash: string };

function isOneOf<T extends string>(list: readonly T[], value: string | undefined): value is T {
  return value !== undefined && (list as readonly string[]).includes(value);
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#\/?/, '');
  const segments = path === '' ? [] : path.split('/').map(decode);
  if (segments.some((s) => s === undefined || s === '')) return { page: 'not-found', hash };
  const [section, id, tab, ...rest] = segments as string[];
  if (rest.length > 0) return { page: 'not-found', hash };
  if (section === undefined || (section === 'goals' && id === undefined)) return { page: 'goals' };
  if (section === 'failed' && id === undefined) return { page: 'failed' };
  if (section === 'goals' && id !== undefined) {
    if (tab === undefined) return { page: 'goal', goalId: id, tab: 'action' };
    if (isOneOf(GOAL_TABS, tab) && tab !== 'action') return { page: 'goal', goalId: id, tab };
  }
  if (section === 'results' && id !== undefined) {
    if (tab === undefined) return { page: 'result', resultId: id, tab: 'status' };
    if (isOneOf(RESULT_TABS, tab) && tab !== 'status') return { page: 'result', resultId: id, tab };
  }
  return { page: 'not-found', hash };
}

/** The fragment of a route; the first tab of a page has none, so each page has exactly one address. */
export function href(route: Exclude<Route, { page: 'not-found' }>): string {
  switch (route.page) {
    case 'goals':
      return '#/goals';
    case 'failed':
      return '#/failed';
    case 'goal':
      return `#/goals/${encodeURIComponent(route.goalId)}${route.tab === 'action' ? '' : `/${route.tab}`}`;
    case 'result':
      return `#/results/${encodeURIComponent(route.resultId)}${route.tab === 'status' ? '' : `/${route.tab}`}`;
  }
}
