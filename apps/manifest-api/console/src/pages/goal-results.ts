import { h } from '../dom';
import { formatDateTime, stateLabel, stateTone } from '../format';
import { href } from '../router';
import { badge, button, card, emptyState, icon, whileBusy } from '../ui';
import type { GoalPage } from './goal';

/** The goal's results, newest first, each leading to its result panel. */
export function resultsTab(page: GoalPage): HTMLElement {
  const refresh = button([icon('refresh'), 'Refresh'], { kind: 'ghost' });
  refresh.addEventListener('click', () => void whileBusy(refresh, async () => {
    page.results = await page.ctx.api.results(page.goal.id);
    page.render();
  }));
  if (page.results.length === 0) {
    return card({ title: 'Results', actions: refresh },
      emptyState({
        icon: 'inbox', title: 'No results yet',
        text: 'Results arrive from your workflow (POST /api/goals/{id}/results). Each one shows up here with its delivery state.',
      }));
  }
  return card({ title: 'Results', subtitle: 'Newest first. Open one for its attempts, revisions and field values.', actions: refresh },
    h('div', { class: 'table-wrap' }, h('table', { class: 'table', 'data-testid': 'results-table' },
      h('thead', {}, h('tr', {}, ['Result', 'State', 'Revision', 'Last change'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, page.results.map((r) => h('tr', {},
        h('td', {}, h('a', { href: href({ page: 'result', resultId: r.id, tab: 'status' }), class: 'strong-link' }, r.title ?? 'Untitled result'),
          h('div', { class: 'mono muted small' }, r.id)),
        h('td', {}, badge(stateLabel(r.state.status), stateTone(r.state.status))),
        h('td', {}, String(r.revision)),
        h('td', {}, formatDateTime(r.state.updatedAt))))))));
}
