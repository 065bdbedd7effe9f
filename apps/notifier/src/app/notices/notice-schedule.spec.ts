import { nextRunAt, occurrenceInWeek, parseNoticeSchedule } from './notice-schedule';

describe('parseNoticeSchedule', () => {
  it.each([
    ['MON 08:00', { kind: 'weekly', offsetMs: 8 * 3_600_000 }],
    ['sun 23:59', { kind: 'weekly', offsetMs: 6 * 86_400_000 + 23 * 3_600_000 + 59 * 60_000 }],
    ['every 6h', { kind: 'interval', everyMs: 6 * 3_600_000 }],
    ['every 7d', { kind: 'interval', everyMs: 7 * 86_400_000 }],
    ['off', { kind: 'off' }],
  ])('reads %s', (text, expected) => {
    expect(parseNoticeSchedule(text)).toEqual(expected);
  });

  it.each(['MON 8:00', 'FOO 08:00', 'MON 24:00', 'every 8d', 'every 0m', 'weekly', ''])('refuses %p', (text) => {
    expect(parseNoticeSchedule(text)).toBeUndefined();
  });
});

describe('nextRunAt', () => {
  const weekly = { kind: 'weekly', offsetMs: 8 * 3_600_000 } as const;

  it('fires on the coming Monday 08:00 UTC', () => {
    expect(nextRunAt(weekly, new Date('2026-11-25T10:00:00Z'))?.toISOString()).toBe('2026-11-30T08:00:00.000Z');
    expect(nextRunAt(weekly, new Date('2026-11-23T07:59:00Z'))?.toISOString()).toBe('2026-11-23T08:00:00.000Z');
  });

  it('never returns the instant it was asked about', () => {
    expect(nextRunAt(weekly, new Date('2026-11-23T08:00:00Z'))?.toISOString()).toBe('2026-11-30T08:00:00.000Z');
  });

  it('adds the interval, and has no next run when off', () => {
    expect(nextRunAt({ kind: 'interval', everyMs: 60_000 }, new Date('2026-11-23T08:00:00Z'))?.toISOString()).toBe('2026-11-23T08:01:00.000Z');
    expect(nextRunAt({ kind: 'off' }, new Date())).toBeUndefined();
  });

  it('finds this week\'s occurrence even when it has passed', () => {
    expect(occurrenceInWeek(weekly, new Date('2026-11-27T00:00:00Z')).toISOString()).toBe('2026-11-23T08:00:00.000Z');
  });
});
