/**
 * The demo serves fixtures written around one day (FIXTURE_EPOCH) as if they were written today: every
 * time in them moves by the same whole number of days, so windows such as "the last 24 hours" or
 * "upcoming" still hold. Times are found by their shape: Unix seconds and milliseconds of this decade,
 * ISO dates (with or without a time), compact GDELT stamps and RFC 2822 dates.
 */
export const FIXTURE_EPOCH_MS = Date.UTC(2026, 10, 22, 12, 0, 0);
const DAY_MS = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Whole days from the fixtures' day to `nowMs` (never negative). */
export const shiftDays = (nowMs: number): number => Math.max(0, Math.floor((nowMs - FIXTURE_EPOCH_MS) / DAY_MS));

const pad = (n: number) => String(n).padStart(2, '0');
const moved = (y: string, m: string, d: string, days: number) => new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)) + days * DAY_MS);

/** `text` with every recognised time moved forward by `days`. */
export function shiftTimes(text: string, days: number): string {
  if (days === 0) return text;
  const s = days * 86_400;
  return text
    .replace(/(?<![\d.])(1[78]\d{11})(?![\d.])/g, (ms) => String(Number(ms) + s * 1000))
    .replace(/(?<![\d.])(1[78]\d{8})(?![\d.])/g, (sec) => String(Number(sec) + s))
    .replace(/\b(20\d\d)-(\d\d)-(\d\d)(?!\d)/g, (_m, y: string, mo: string, d: string) => moved(y, mo, d, days).toISOString().slice(0, 10))
    .replace(
      /\b(20\d\d)(\d\d)(\d\d)(T\d{6}Z)/g,
      (_m, y: string, mo: string, d: string, rest: string) =>
        `${moved(y, mo, d, days).toISOString().slice(0, 10).replace(/-/g, '')}${rest}`,
    )
    .replace(
      /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (20\d\d)\b/g,
      (_m, d: string, mon: string, y: string) => {
        const date = moved(y, String(MONTHS.indexOf(mon) + 1), d, days);
        return `${WEEKDAYS[date.getUTCDay()]}, ${pad(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
      },
    );
}
