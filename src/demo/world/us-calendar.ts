/**
 * The US exchange calendar of the demo world, as NYSE publishes its rules: sessions 09:30–16:00 New York time (so
 * 14:30–21:00 UTC in winter and 13:30–20:00 UTC under daylight saving, from the second Sunday of March to the first
 * Sunday of November), pre-market from 04:00 and after-hours until 20:00, closed on weekends and on the ten holidays
 * (a Saturday holiday is observed the Friday before, a Sunday one the Monday after; New Year's Day on a Saturday is not
 * observed). Early closes (13:00 on some eves) are not modelled.
 */
const DAY_S = 86_400;
const HOUR_S = 3600;

const utcDay = (y: number, m: number, d: number) => Date.UTC(y, m, d) / 1000;
const weekdayOf = (dayStart: number) => new Date(dayStart * 1000).getUTCDay();

/** The `n`th (1-based; -1 = last) `weekday` (0 = Sunday) of month `m` (0-based). */
function nthWeekday(y: number, m: number, weekday: number, n: number): number {
  if (n < 0) {
    const last = utcDay(y, m + 1, 0);
    return last - ((weekdayOf(last) - weekday + 7) % 7) * DAY_S;
  }
  const first = utcDay(y, m, 1);
  return first + ((weekday - weekdayOf(first) + 7) % 7) * DAY_S + (n - 1) * 7 * DAY_S;
}

/** Easter Sunday (Gregorian, anonymous algorithm), for Good Friday. */
function easter(y: number): number {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const h = (19 * a + b - Math.floor(b / 4) - Math.floor((8 * b + 13) / 25) + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * Math.floor(c / 4) - h - (c % 4)) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return utcDay(y, month - 1, ((h + l - 7 * m + 114) % 31) + 1);
}

/** A fixed-date holiday as observed: Saturday → Friday, Sunday → Monday. */
function observed(dayStart: number): number {
  const weekday = weekdayOf(dayStart);
  return weekday === 6 ? dayStart - DAY_S : weekday === 0 ? dayStart + DAY_S : dayStart;
}

const holidayCache = new Map<number, Set<number>>();

/** The day starts (UTC) of the year's NYSE holidays. */
function holidays(y: number): Set<number> {
  let days = holidayCache.get(y);
  if (!days) {
    const newYear = utcDay(y, 0, 1);
    days = new Set([
      ...(weekdayOf(newYear) === 6 ? [] : [observed(newYear)]),
      nthWeekday(y, 0, 1, 3), // Martin Luther King Jr. Day
      nthWeekday(y, 1, 1, 3), // Washington's Birthday
      easter(y) - 2 * DAY_S, // Good Friday
      nthWeekday(y, 4, 1, -1), // Memorial Day
      observed(utcDay(y, 5, 19)), // Juneteenth
      observed(utcDay(y, 6, 4)), // Independence Day
      nthWeekday(y, 8, 1, 1), // Labor Day
      nthWeekday(y, 10, 4, 4), // Thanksgiving
      observed(utcDay(y, 11, 25)), // Christmas
    ]);
    holidayCache.set(y, days);
  }
  return days;
}

/** Whether US exchanges trade on the UTC day starting at `dayStart`. */
export function isTradingDay(dayStart: number): boolean {
  const weekday = weekdayOf(dayStart);
  return weekday !== 0 && weekday !== 6 && !holidays(new Date(dayStart * 1000).getUTCFullYear()).has(dayStart);
}

/** New York's offset from UTC in hours on the UTC day of `t`: −4 under daylight saving, else −5. */
export function newYorkOffsetH(t: number): number {
  const dayStart = Math.floor(t / DAY_S) * DAY_S;
  const y = new Date(dayStart * 1000).getUTCFullYear();
  return dayStart >= nthWeekday(y, 2, 0, 2) && dayStart < nthWeekday(y, 10, 0, 1) ? -4 : -5;
}

/** UTC instants of a New York wall-clock hour on that day. */
export const newYorkTime = (dayStart: number, hour: number): number => dayStart + (hour - newYorkOffsetH(dayStart)) * HOUR_S;

export type MarketState = 'pre' | 'open' | 'post' | 'closed';

/** The trading period of a day: pre-market 04:00, regular 09:30–16:00, after-hours until 20:00 (New York). */
export const tradingPeriod = (dayStart: number) => ({
  pre: { start: newYorkTime(dayStart, 4), end: newYorkTime(dayStart, 9.5) },
  regular: { start: newYorkTime(dayStart, 9.5), end: newYorkTime(dayStart, 16) },
  post: { start: newYorkTime(dayStart, 16), end: newYorkTime(dayStart, 20) },
});
