import { isoWeek, startOfIsoWeek } from './iso-week';

describe('isoWeek', () => {
  it.each([
    ['2026-11-23T08:00:00Z', '2026-W48'],
    ['2026-11-29T23:59:59Z', '2026-W48'],
    ['2026-11-30T00:00:00Z', '2026-W49'],
    ['2026-01-01T00:00:00Z', '2026-W01'],
    ['2027-01-01T12:00:00Z', '2026-W53'],
    ['2024-12-30T00:00:00Z', '2025-W01'],
    ['2021-01-03T00:00:00Z', '2020-W53'],
  ])('puts %s in week %s', (at, week) => {
    expect(isoWeek(new Date(at))).toBe(week);
  });

  it('starts a week on Monday 00:00 UTC', () => {
    expect(startOfIsoWeek(new Date('2026-11-26T15:30:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(startOfIsoWeek(new Date('2026-11-29T23:00:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(startOfIsoWeek(new Date('2026-11-23T00:00:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });
});
