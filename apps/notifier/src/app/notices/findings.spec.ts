import { findFindings, type GoalCheckState, type SourceReport } from './findings';

const now = new Date('2026-11-23T08:00:00Z');

const receiverReport: SourceReport = {
  source: 'receiver',
  sectionTypes: ['text', 'gallery'],
  blockTypes: ['paragraph', 'quote', 'table'],
  fieldKeys: ['category', 'region'],
  requiredFields: [{ key: 'region', label: 'Region' }],
  reportedAt: new Date('2026-11-22T08:00:00Z'),
};

function state(report: Partial<SourceReport> = {}, overrides: Partial<GoalCheckState> = {}): GoalCheckState {
  return {
    goalId: 'g1',
    goal: { name: 'Daily news', ownerEmail: 'owner@example.test', deleted: false },
    contract: {
      origin: 'manual',
      sectionTypes: ['text', 'gallery'],
      blockTypes: ['paragraph', 'quote'],
      fields: [{ key: 'region', label: 'Region' }, { key: 'category', label: 'Category' }],
    },
    reports: [{ ...receiverReport, ...report }],
    ...overrides,
  };
}

const receiverMade = (s: GoalCheckState): GoalCheckState => (s.contract ? { ...s, contract: { ...s.contract, origin: 'receiver' } } : s);

describe('findFindings', () => {
  it('finds nothing for a manual contract the fresh report covers', () => {
    expect(findFindings(state(), now, 7)).toBeNull();
  });

  it('lists each section type, block type and field of a manual contract the receiver no longer reports, naming the receiver', () => {
    const s = state({ sectionTypes: ['text'], blockTypes: ['paragraph'], fieldKeys: ['category'] });
    expect(findFindings(s, now, 7)).toEqual({
      mismatch: [{ source: 'receiver', sectionTypes: ['gallery'], blockTypes: ['quote'], fields: [{ key: 'region', label: 'Region' }] }],
    });
  });

  it('judges each source by its own latest report: a later plugin report does not blame the receiver', () => {
    const s = state();
    s.reports = [
      { ...receiverReport, reportedAt: new Date('2026-11-20T08:00:00Z') },
      { ...receiverReport, source: 'wordpress', sectionTypes: ['text'], fieldKeys: [], reportedAt: new Date('2026-11-22T09:00:00Z') },
    ];
    expect(findFindings(s, now, 7)).toEqual({ mismatch: [{ source: 'wordpress', sectionTypes: ['gallery'], blockTypes: [], fields: [] }] });
  });

  it('lists the mismatch of every source that lacks something, each with its own missing types', () => {
    const s = state();
    s.reports = [
      { ...receiverReport, source: 'drupal', blockTypes: ['paragraph'] },
      { ...receiverReport, sectionTypes: ['text'] },
    ];
    expect(findFindings(s, now, 7)?.mismatch).toEqual([
      { source: 'drupal', sectionTypes: [], blockTypes: ['quote'], fields: [] },
      { source: 'receiver', sectionTypes: ['gallery'], blockTypes: [], fields: [] },
    ]);
  });

  it('does not list what a receiver-established contract has and the receiver stopped reporting', () => {
    const s = receiverMade(state({ sectionTypes: [], blockTypes: [], fieldKeys: [], requiredFields: [] }));
    expect(findFindings(s, now, 7)).toBeNull();
  });

  it('lists the section types, block types and required fields a later receiver report added to a receiver-established contract', () => {
    const s = receiverMade(state({
      sectionTypes: ['text', 'timeline'], fieldKeys: ['category', 'region', 'desk', 'note'],
      requiredFields: [{ key: 'region', label: 'Region' }, { key: 'desk', label: 'Desk' }],
    }));
    expect(findFindings(s, now, 7)).toEqual({ drift: { sectionTypes: ['timeline'], blockTypes: ['table'], requiredFields: [{ key: 'desk', label: 'Desk' }] } });
  });

  it('does not take a plugin report as drift of a receiver-established contract', () => {
    const s = receiverMade(state({ source: 'wordpress', sectionTypes: ['timeline'], requiredFields: [{ key: 'desk', label: 'Desk' }] }));
    expect(findFindings(s, now, 7)).toBeNull();
  });

  it('compares drift with the receiver\'s own report while a plugin also reports', () => {
    const s = receiverMade(state());
    s.reports = [{ ...receiverReport, sectionTypes: ['text', 'gallery', 'faq'] }, { ...receiverReport, source: 'wordpress', sectionTypes: ['map'] }];
    expect(findFindings(s, now, 7)?.drift?.sectionTypes).toEqual(['faq']);
  });

  it('ignores the fields of a plugin report but still compares its section and block types', () => {
    const s = state({ source: 'plugin', fieldKeys: [], blockTypes: ['paragraph'] });
    expect(findFindings(s, now, 7)).toEqual({ mismatch: [{ source: 'plugin', sectionTypes: [], blockTypes: ['quote'], fields: [] }] });
  });

  it('flags a receiver whose last report is older than the threshold, with its date', () => {
    const s = state({ reportedAt: new Date('2026-11-15T07:59:59Z') }, { contract: null });
    expect(findFindings(s, now, 7)).toEqual({ stale: { sources: [{ source: 'receiver', lastReportedAt: '2026-11-15T07:59:59.000Z' }], afterDays: 7 } });
  });

  it('flags a plugin that stopped reporting while the receiver keeps reporting', () => {
    const s = state();
    s.reports = [{ ...receiverReport, source: 'wordpress', reportedAt: new Date('2026-11-01T00:00:00Z') }, receiverReport];
    expect(findFindings(s, now, 7)).toEqual({ stale: { sources: [{ source: 'wordpress', lastReportedAt: '2026-11-01T00:00:00.000Z' }], afterDays: 7 } });
  });

  it('does not flag a report exactly at the threshold', () => {
    expect(findFindings(state({ reportedAt: new Date('2026-11-16T08:00:00Z') }), now, 7)).toBeNull();
  });

  it('reports a mismatch and a stale receiver together', () => {
    const found = findFindings(state({ sectionTypes: ['text'], reportedAt: new Date('2026-11-01T00:00:00Z') }), now, 7);
    expect(found?.mismatch?.[0].sectionTypes).toEqual(['gallery']);
    expect(found?.stale?.sources).toEqual([{ source: 'receiver', lastReportedAt: '2026-11-01T00:00:00.000Z' }]);
  });
});
