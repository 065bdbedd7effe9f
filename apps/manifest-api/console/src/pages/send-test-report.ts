import type { SendTestReport } from '../api-types';
import { h, type Child } from '../dom';
import { formatDuration, prettyBody, statusText, type Tone } from '../format';
import { badge, notice } from '../ui';

const HEADLINES: Record<string, [title: string, tone: Tone]> = {
  delivered: ['The receiver answered with 2xx', 'success'],
  retriable: ['The receiver failed; a real delivery would be retried', 'warning'],
  permanent: ['The receiver refused the request; a real delivery would not be retried', 'danger'],
  conflict: ['The receiver answered 409 Conflict', 'warning'],
  refused: ['Refused: nothing was sent', 'danger'],
};

/** What a Send test sent and what came back, or exactly why nothing was sent. */
export function sendTestReport(report: SendTestReport, url: string, savedUrl: string | null): HTMLElement {
  const [title, tone] = HEADLINES[report.outcome] ?? [report.outcome, 'neutral'];
  const unsaved = url !== savedUrl;
  return h('section', { class: 'report', 'aria-label': 'Send test result', 'data-testid': 'send-test-report', 'data-outcome': report.outcome },
    h('header', { class: 'report-head' },
      badge(report.outcome === 'refused' ? 'Refused' : report.response ? statusText(report.response.status) : 'No answer', tone),
      h('strong', {}, title),
      h('span', { class: 'muted small' }, report.outcome === 'refused' ? '' : formatDuration(report.durationMs))),
    explanation(report, unsaved),
    report.request
      ? h('div', { class: 'exchange' },
        h('div', { class: 'exchange-side' },
          h('h3', {}, 'Sent'),
          h('p', { class: 'mono wrap' }, h('span', { class: 'method' }, 'POST'), ' ', report.request.url),
          headerTable(report.request.headers),
          h('details', {}, h('summary', {}, 'Body (payload v5 sample)'), h('pre', { class: 'code' }, prettyBody(report.request.body)))),
        h('div', { class: 'exchange-side' },
          h('h3', {}, 'Received'),
          report.response
            ? [
              h('p', {}, h('strong', {}, statusText(report.response.status)), h('span', { class: 'muted' }, ` in ${formatDuration(report.durationMs)}`)),
              headerTable(report.response.headers),
              h('details', { open: true }, h('summary', {}, report.response.truncated ? 'Body (first 64 KiB)' : 'Body'),
                report.response.body === '' ? h('p', { class: 'muted small' }, 'Empty body.') : h('pre', { class: 'code' }, prettyBody(report.response.body))),
            ]
            : h('p', { class: 'muted' }, 'No answer came back.', report.errorMessage ? ` ${report.errorMessage}` : '')))
      : null);
}

function explanation(report: SendTestReport, unsaved: boolean): Child {
  if (report.outcome === 'refused') {
    return notice('danger', 'The address restriction refused this URL',
      h('p', {}, report.errorMessage ?? 'The target is not a public address.'),
      h('p', { class: 'mono small' }, `rule: ${report.rule ?? 'unknown'}`, report.address ? ` · address: ${report.address}` : ''));
  }
  if (report.verified) return notice('success', 'Verified', 'The saved URL answered with 2xx. Send immediately can now be switched on.');
  if (report.outcome === 'delivered' && unsaved) {
    return notice('info', 'This URL is not saved', 'Save it and send a test again to verify it.');
  }
  if (report.outcome !== 'delivered') {
    const reason = [report.errorClass, report.errorMessage].filter(Boolean).join(': ');
    return notice(report.outcome === 'permanent' ? 'danger' : 'warning', 'Not verified', reason || 'The receiver did not answer with 2xx.');
  }
  return null;
}

function headerTable(headers: Record<string, string | string[]>): HTMLElement {
  const rows = Object.entries(headers).sort(([a], [b]) => a.localeCompare(b));
  return h('table', { class: 'kv' }, h('tbody', {}, rows.map(([name, value]) =>
    h('tr', {}, h('th', { scope: 'row' }, name), h('td', { class: 'mono' }, Array.isArray(value) ? value.join(', ') : value)))));
}
