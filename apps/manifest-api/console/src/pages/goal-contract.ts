import type { GoalContract, ReceiverField } from '../api-types';
import { h } from '../dom';
import { formatDateTime } from '../format';
import { badge, card, dl, emptyState } from '../ui';
import type { GoalPage } from './goal';

/** The goal's content contract, where it came from, and every capability the receiver (or a plugin) reported. */
export function contractTab(page: GoalPage): HTMLElement {
  const { contract, capabilities, reports } = page.contract;
  return h('div', { class: 'stack' },
    contract ? contractCard(contract) : card({ title: 'Contract' },
      emptyState({
        icon: 'inbox', title: 'No contract yet',
        text: 'The first capability report of the receiver (source “receiver”) establishes it; it can also be set by hand (PUT /api/goals/{id}/contract).',
      })),
    card({ title: 'Reports', subtitle: 'The latest capability report of each source.' },
      reports.length === 0 ? h('p', { class: 'muted' }, 'Nothing reported yet.')
        : table(['Source', 'First report', 'Latest report'], reports.map((r) => [sourceBadge(r.source), formatDateTime(r.firstReportedAt), formatDateTime(r.reportedAt)]))),
    card({ title: 'Capabilities reported', subtitle: 'Every section type, block type and field any report named, with when. Reports never change the contract: setting it by hand (PUT /api/goals/{id}/contract) adopts new ones.' },
      capabilities.length === 0 ? h('p', { class: 'muted' }, 'No capabilities reported yet.')
        : table(['Kind', 'Name', 'In contract', 'Last reported by', 'First reported', 'Last reported'], capabilities.map((c) =>
          [c.kind, h('span', { class: 'mono' }, c.name), c.inContract ? 'Yes' : badge('Not adopted', 'warning'), sourceBadge(c.lastSource),
            formatDateTime(c.firstReportedAt), formatDateTime(c.lastReportedAt)]))));
}

function contractCard(contract: NonNullable<GoalContract['contract']>): HTMLElement {
  return card({ title: 'Contract', subtitle: contract.origin === 'receiver' ? 'Established by the receiver’s first report; later reports never change it.' : 'Set by hand; reports never change it.', testid: 'contract' },
    dl([
      ['Origin', badge(contract.origin === 'receiver' ? 'Receiver' : 'Manual', contract.origin === 'receiver' ? 'info' : 'neutral')],
      ['Version', String(contract.version)],
      ['Established', formatDateTime(contract.establishedAt)],
      ['Last change', formatDateTime(contract.updatedAt)],
    ]),
    h('h3', { class: 'subhead' }, 'Section types'), chips(contract.sectionTypes, 'No section types: every section is sent in fallback form.'),
    h('h3', { class: 'subhead' }, 'Block types'), chips(contract.blockTypes, 'No block types.'),
    h('h3', { class: 'subhead' }, 'Receiver fields'),
    contract.fields.length === 0 ? h('p', { class: 'muted' }, 'No fields.')
      : table(['Key', 'Label', 'Type', 'Required', 'Options'], contract.fields.map((f) => [h('span', { class: 'mono' }, f.key), f.label, typeOf(f),
        f.required ? badge('Required', 'warning') : h('span', { class: 'muted' }, 'No'), (f.options ?? []).map((o) => o.label).join(', ') || '—'])));
}

function typeOf(f: ReceiverField): string {
  return f.type === 'enum' && f.multiple ? 'enum (multiple)' : f.type;
}

function sourceBadge(source: string): HTMLElement {
  return badge(source === 'receiver' ? 'Receiver' : 'Plugin', source === 'receiver' ? 'info' : 'neutral');
}

function chips(values: string[], empty: string): HTMLElement {
  return values.length === 0 ? h('p', { class: 'muted' }, empty) : h('ul', { class: 'chips' }, values.map((v) => h('li', { class: 'chip mono' }, v)));
}

function table(columns: string[], rows: (string | Node)[][]): HTMLElement {
  return h('div', { class: 'table-wrap' }, h('table', { class: 'table' },
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((c) => h('td', {}, c)))))));
}
