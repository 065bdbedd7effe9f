const DAY_MS = 86_400_000;

/** ISO 8601 week of a UTC instant, e.g. `2026-W48`: the unit of "one notice per goal per week". */
export function isoWeek(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  // The Thursday of the week decides which year the week belongs to.
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const year = day.getUTCFullYear();
  const week = Math.ceil(((day.getTime() - Date.UTC(year, 0, 1)) / DAY_MS + 1) / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** Monday 00:00 UTC of the ISO week that holds `at`. */
export function startOfIsoWeek(at: Date): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() || 7) - 1) * DAY_MS);
}
