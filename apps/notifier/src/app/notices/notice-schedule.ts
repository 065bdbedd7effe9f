import { startOfIsoWeek } from './iso-week';

const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const WEEK_MS = 7 * UNIT_MS.d;

export type NoticeSchedule =
  | { kind: 'off' }
  /** Once a week: `offsetMs` after Monday 00:00 UTC. */
  | { kind: 'weekly'; offsetMs: number }
  | { kind: 'interval'; everyMs: number };

/** Reads NOTICE_SCHEDULE: `MON 08:00` (UTC), `every 6h`, or `off`; undefined when it is not one of these. */
export function parseNoticeSchedule(text: string): NoticeSchedule | undefined {
  const value = text.trim().toUpperCase();
  if (value === 'OFF') return { kind: 'off' };
  const weekly = /^([A-Z]{3}) ([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (weekly) {
    const day = WEEKDAYS.indexOf(weekly[1] as (typeof WEEKDAYS)[number]);
    if (day < 0) return undefined;
    return { kind: 'weekly', offsetMs: day * UNIT_MS.d + Number(weekly[2]) * UNIT_MS.h + Number(weekly[3]) * UNIT_MS.m };
  }
  const interval = /^EVERY (\d{1,6})([SMHD])$/.exec(value);
  if (interval) {
    const everyMs = Number(interval[1]) * UNIT_MS[interval[2].toLowerCase() as keyof typeof UNIT_MS];
    // Longer than a week would skip weeks (and overflow a Node timer).
    return everyMs > 0 && everyMs <= WEEK_MS ? { kind: 'interval', everyMs } : undefined;
  }
  return undefined;
}

/** The weekly run time of the week that holds `at` (it may lie before or after `at`). */
export function occurrenceInWeek(schedule: { offsetMs: number }, at: Date): Date {
  return new Date(startOfIsoWeek(at).getTime() + schedule.offsetMs);
}

/** When the schedule next fires strictly after `after`; undefined when it is off. */
export function nextRunAt(schedule: NoticeSchedule, after: Date): Date | undefined {
  if (schedule.kind === 'off') return undefined;
  if (schedule.kind === 'interval') return new Date(after.getTime() + schedule.everyMs);
  const thisWeek = occurrenceInWeek(schedule, after);
  return thisWeek.getTime() > after.getTime() ? thisWeek : new Date(thisWeek.getTime() + WEEK_MS);
}
