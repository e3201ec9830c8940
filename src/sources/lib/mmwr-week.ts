/** MMWR epidemiological weeks (CDC's `YYYYWW`): Sunday to Saturday; week 1 is the first week with at least four days in the year. */

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** The Sunday (00:00 UTC) that starts week 1 of `year`: the Sunday on or before January 4. */
function weekOneStart(year: number): number {
  const jan4 = Date.UTC(year, 0, 4);
  return jan4 - new Date(jan4).getUTCDay() * DAY_MS;
}

/** The epiweek (`YYYYWW`) holding an instant; late December can fall in next year's week 1, early January in last year's week 52/53. */
export function epiweekOf(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  const [weekYear, start] = [year + 1, year, year - 1].map((y) => [y, weekOneStart(y)] as const).find(([, s]) => s <= ms)!;
  return weekYear * 100 + Math.floor((ms - start) / WEEK_MS) + 1;
}

/** The Sunday 00:00 UTC that starts an epiweek, in Unix seconds. */
export const epiweekStart = (epiweek: number): number => (weekOneStart(Math.floor(epiweek / 100)) + ((epiweek % 100) - 1) * WEEK_MS) / 1000;
