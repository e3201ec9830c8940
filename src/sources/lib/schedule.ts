/** Publication schedules of upstreams that publish at known times: a type's `nextUpdate` (rows' `next_update_at`). */

const DAY_S = 86_400;

/** The first Monday-to-Friday time of day `secondOfDayUtc` strictly after `afterS` (Unix seconds); holidays are not known. */
export function nextWeekdayAt(afterS: number, secondOfDayUtc: number): number {
  let at = Math.floor(afterS / DAY_S) * DAY_S + secondOfDayUtc;
  while (at <= afterS || isWeekend(at)) at += DAY_S;
  return at;
}

const isWeekend = (s: number) => [0, 6].includes(new Date(s * 1000).getUTCDay());

/** A weekly release: one week after the last. */
export const nextWeek = (afterS: number): number => afterS + 7 * DAY_S;
