import type { Attempt, Revision } from '../api-types';
import { h } from '../dom';
import { escapedBytes, formatDateTime, formatDuration, outcomeLabel, outcomeTone, statusText } from '../format';
import { badge, dl } from '../ui';

/** Every delivery attempt of a result, oldest first. */
export function attemptsTable(attempts: Attempt[]): HTMLElement {
  return h('div', { class: 'table-wrap' }, h('table', { class: 'table' },
    h('thead', {}, h('tr', {}, ['Attempt', 'Revision', 'Time', 'Status', 'Outcome', 'Duration', 'Error', 'Answer'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, attempts.map((a, i) => h('tr', { 'data-outcome': a.outcome },
      h('td', { class: 'nowrap' }, `#${a.attempt}`, attemptNote(attempts, i)),
      h('td', {}, String(a.revision)),
      h('td', { class: 'nowrap' }, formatDateTime(a.attemptedAt), h('div', { class: 'muted small mono' }, a.targetHost)),
      h('td', { class: 'mono nowrap' }, statusText(a.status)),
      h('td', {}, badge(outcomeLabel(a.outcome), outcomeTone(a.outcome))),
      h('td', { class: 'nowrap' }, formatDuration(a.durationMs)),
      h('td', {}, a.errorClass || a.errorMessage
        ? [h('span', { class: 'mono small' }, a.errorClass ?? ''), a.errorMessage ? h('div', { class: 'small' }, a.errorMessage) : null]
        : h('span', { class: 'muted' }, '—')),
      h('td', {}, answer(a)))))));
}

/** The receiver's headers and body start, as text (escaped by the DOM), folded away until asked for. */
function answer(a: Attempt): HTMLElement {
  if (!a.response) return h('span', { class: 'muted' }, 'No answer');
  const { headers, body, bodyEncoding, truncated } = a.response;
  const headerText = Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\n');
  const text = bodyEncoding === 'base64' ? escapedBytes(body) : body;
  const size = bodyEncoding === 'base64' ? `${atob(body).length} bytes, not UTF-8 text: shown as \\xNN where not printable` : `${body.length} chars`;
  return h('details', { class: 'answer', 'data-testid': 'answer' },
    h('summary', {}, body ? `Body (${size}${truncated ? ', cut' : ''})` : 'Headers'),
    h('pre', { class: 'code', 'aria-label': 'Response headers' }, headerText || '(no headers)'),
    body ? h('pre', { class: 'code', 'aria-label': 'Response body' }, text) : null,
    truncated ? h('div', { class: 'muted small' }, 'Only the first 4 KiB are kept.') : null);
}

/** "retried by hand" when an earlier attempt of the same delivery was its last automatic one. */
function attemptNote(attempts: Attempt[], index: number): HTMLElement | null {
  const a = attempts[index];
  const byHand = attempts.slice(0, index).some((earlier) => earlier.deliveryId === a.deliveryId && earlier.final);
  if (byHand) return h('div', { class: 'muted small' }, 'retried by hand');
  return a.final && a.outcome !== 'delivered' ? h('div', { class: 'muted small' }, 'no automatic retry') : null;
}

/** One revision in the history: what kind of change, its execution and parent, new articles. */
export function revisionItem(r: Revision, current: boolean): HTMLElement {
  const kind = r.resendOf !== null ? `Re-sent revision ${r.resendOf} after 409` : r.revision === 1 ? 'First version'
    : r.newArticles.length ? 'New cluster version' : r.textOnlyChange ? 'Text change' : 'Change';
  return h('li', { class: ['timeline-item', current && 'current'] },
    h('div', { class: 'timeline-head' }, h('strong', {}, `Revision ${r.revision}`), badge(kind, r.revision === 1 ? 'neutral' : 'info'),
      current ? badge('Current', 'success') : null, h('span', { class: 'muted small' }, formatDateTime(r.createdAt))),
    r.title ? h('p', {}, r.title) : null,
    dl([
      ['Execution', h('span', { class: 'mono' }, r.workflowExecution)],
      ['Parent execution', r.parentExecution ? h('span', { class: 'mono' }, r.parentExecution) : '—'],
      ['New articles', r.newArticles.length ? h('span', { class: 'mono' }, r.newArticles.join(', ')) : '—'],
    ], 'facts facts-inline'));
}
