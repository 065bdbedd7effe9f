import { findFindings, type GoalCheckState } from './findings';

const now = new Date('2026-11-23T08:00:00Z');

function state(overrides: Partial<GoalCheckState> = {}): GoalCheckState {
  return {
    goalId: 'g1',
    goal: { name: 'Daily news', ownerEmail: 'owner@example.test', deleted: false },
    contract: {
      origin: 'manual',
      sectionTypes: ['text', 'gallery'],
      blockTypes: ['paragraph', 'quote'],
      fields: [{ key: 'region', label: 'Region' }, { key: 'category', label: 'Category' }],
    },
    report: {
      source: 'receiver',
      sectionTypes: ['text', 'gallery'],
      blockTypes: ['paragraph', 'quote', 'table'],
      fieldKeys: ['category', 'region'],
      requiredFields: [{ key: 'region', label: 'Region' }],
      reportedAt: new Date('2026-11-22T08:00:00Z'),
    },
    ...overrides,
  };
}

describe('findFindings', () => {
  it('finds nothing for a manual contract the fresh report covers', () => {
    expect(findFindings(state(), now, 7)).toBeNull();
  });

  it('lists each section type, block type and field of a manual contract the receiver no longer reports', () => {
    const s = state();
    s.report = { ...s.report, sectionTypes: ['text'], blockTypes: ['paragraph'], fieldKeys: ['category'] };
    expect(findFindings(s, now, 7)).toEqual({
      mismatch: { sectionTypes: ['gallery'], blockTypes: ['quote'], fields: [{ key: 'region', label: 'Region' }] },
    });
  });

  it('does not list what a receiver-established contract has and the receiver stopped reporting', () => {
    const s = state();
    if (s.contract) s.contract = { ...s.contract, origin: 'receiver' };
    s.report = { ...s.report, sectionTypes: [], blockTypes: [], fieldKeys: [], requiredFields: [] };
    expect(findFindings(s, now, 7)).toBeNull();
  });

  it('lists the section types, block types and required fields a later receiver report added to a receiver-established contract', () => {
    const s = state();
    if (s.contract) s.contract = { ...s.contract, origin: 'receiver' };
    s.report = {
      ...s.report, sectionTypes: ['text', 'timeline'], fieldKeys: ['category', 'region', 'desk', 'note'],
      requiredFields: [{ key: 'region', label: 'Region' }, { key: 'desk', label: 'Desk' }],
    };
    expect(findFindings(s, now, 7)).toEqual({ drift: { sectionTypes: ['timeline'], blockTypes: ['table'], requiredFields: [{ key: 'desk', label: 'Desk' }] } });
  });

  it('does not take a plugin report as drift of a receiver-established contract', () => {
    const s = state();
    if (s.contract) s.contract = { ...s.contract, origin: 'receiver' };
    s.report = { ...s.report, source: 'wordpress', sectionTypes: ['timeline'], requiredFields: [{ key: 'desk', label: 'Desk' }] };
    expect(findFindings(s, now, 7)).toBeNull();
  });

  it('ignores the fields of a plugin report but still compares its section and block types', () => {
    const s = state();
    s.report = { ...s.report, source: 'plugin', fieldKeys: [], blockTypes: ['paragraph'] };
    expect(findFindings(s, now, 7)).toEqual({ mismatch: { sectionTypes: [], blockTypes: ['quote'], fields: [] } });
  });

  it('flags a receiver whose last report is older than the threshold, with its date', () => {
    const s = state({ contract: null });
    s.report = { ...s.report, reportedAt: new Date('2026-11-15T07:59:59Z') };
    expect(findFindings(s, now, 7)).toEqual({ stale: { lastReportedAt: '2026-11-15T07:59:59.000Z', afterDays: 7 } });
  });

  it('does not flag a report exactly at the threshold', () => {
    const s = state();
    s.report = { ...s.report, reportedAt: new Date('2026-11-16T08:00:00Z') };
    expect(findFindings(s, now, 7)).toBeNull();
  });

  it('reports a mismatch and a stale receiver together', () => {
    const s = state();
    s.report = { ...s.report, sectionTypes: ['text'], reportedAt: new Date('2026-11-01T00:00:00Z') };
    const found = findFindings(s, now, 7);
    expect(found?.mismatch?.sectionTypes).toEqual(['gallery']);
    expect(found?.stale?.lastReportedAt).toBe('2026-11-01T00:00:00.000Z');
  });
});
