/**
 * Moves every time in a fixture's text by the same number of seconds, each in its own format, so an answer written
 * around one day (FIXTURE_EPOCH) reads as if written now: Unix seconds and milliseconds of this decade, ISO 8601
 * date-times (the offset they carry is kept), RFC 2822 dates (with or without a time, GMT/UT/EST/EDT or ±hhmm), compact
 * GDELT stamps, and dates without a time (ISO, US MM/DD/YYYY, "22 November 2026", Redfin's "November-22-2026"), which move
 * by whole days.
 */
export const FIXTURE_EPOCH_S = Date.UTC(2026, 10, 22, 12, 0, 0) / 1000;
const DAY_S = 86_400;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const ZONES: Record<string, number> = { GMT: 0, UT: 0, UTC: 0, Z: 0, EST: -300, EDT: -240, CST: -360, CDT: -300, PST: -480, PDT: -420 };

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** A wall-clock time in a zone `offsetMin` east of UTC, as a Date whose UTC fields read that wall clock. */
const wall = (unixS: number, offsetMin: number) => new Date((unixS + offsetMin * 60) * 1000);
const isoDate = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const hms = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
const utcDay = (y: string | number, m: string | number, d: string | number) => Date.UTC(Number(y), Number(m) - 1, Number(d)) / 1000;

const ISO_DATE_TIME = /\b(20\d\d)-(\d\d)-(\d\d)([T ])(\d\d):(\d\d)(?::(\d\d))?(\.\d+)?(Z|[+-]\d\d:?\d\d)?/g;
/** A date not followed by a time (that one is an ISO_DATE_TIME). */
const DATE_ONLY = /\b(20\d\d)-(\d\d)-(\d\d)(?!\d|[T ]\d\d:)/g;
/** GDELT's `20261122T101500Z`. */
const COMPACT = /\b(20\d\d)(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z/g;
const RFC_2822 =
  /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (20\d\d)(?: (\d\d):(\d\d)(?::(\d\d))? ([A-Z]{1,3}T?|[+-]\d{4}))?/g;

function offsetMinutes(zone: string | undefined): number {
  if (!zone || zone in ZONES) return ZONES[zone ?? 'Z'] ?? 0;
  const m = /^([+-])(\d\d):?(\d\d)$/.exec(zone)!;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** Unix seconds of an ISO_DATE_TIME match (no offset: UTC). */
function isoUnix(match: string[]): number {
  const [, y, mo, d, , h, mi, sec, , zone] = match;
  return utcDay(y!, mo!, d!) + Number(h) * 3600 + Number(mi) * 60 + Number(sec ?? 0) - offsetMinutes(zone) * 60;
}

function shiftIso(match: string[], s: number): string {
  const [, , , , sep, , , sec, fraction = '', zone] = match;
  const at = wall(isoUnix(match) + s, offsetMinutes(zone));
  const time = sec === undefined ? hms(at).slice(0, 5) : hms(at);
  return `${isoDate(at)}${sep}${time}${fraction}${zone ?? ''}`;
}

function shiftRfc(match: string[], s: number): string {
  const [, d, mon, y, h, mi, sec, zone] = match;
  const day = utcDay(y!, MONTHS.indexOf(mon!) + 1, d!);
  if (h === undefined) {
    const at = wall(day + Math.round(s / DAY_S) * DAY_S, 0);
    return `${WEEKDAYS[at.getUTCDay()]}, ${pad(at.getUTCDate())} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
  }
  const offset = offsetMinutes(zone);
  const at = wall(day + Number(h) * 3600 + Number(mi) * 60 + Number(sec ?? 0) - offset * 60 + s, offset);
  const time = sec === undefined ? hms(at).slice(0, 5) : hms(at);
  return `${WEEKDAYS[at.getUTCDay()]}, ${pad(at.getUTCDate())} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()} ${time} ${zone}`;
}

/** `text` with every recognised time moved forward by `s` seconds (dates without a time by the nearest whole days). */
export function shiftTimes(text: string, s: number): string {
  if (s === 0) return text;
  const days = Math.round(s / DAY_S);
  const byDays = (y: string | number, m: string | number, d: string | number) => wall(utcDay(y, m, d) + days * DAY_S, 0);
  return text
    .replace(/(?<![\d.])(1[78]\d{11})(?![\d.])/g, (ms) => String(Number(ms) + s * 1000))
    .replace(/(?<![\d.])(1[78]\d{8})(?![\d.])/g, (sec) => String(Number(sec) + s))
    .replace(ISO_DATE_TIME, (...m: string[]) => shiftIso(m, s))
    .replace(DATE_ONLY, (_m, y: string, mo: string, d: string) => isoDate(byDays(y, mo, d)))
    .replace(COMPACT, (_m, y: string, mo: string, d: string, h: string, mi: string, sec: string) => {
      const at = wall(utcDay(y, mo, d) + Number(h) * 3600 + Number(mi) * 60 + Number(sec) + s, 0);
      return `${isoDate(at).replace(/-/g, '')}T${hms(at).replace(/:/g, '')}Z`;
    })
    .replace(RFC_2822, (...m: string[]) => shiftRfc(m, s))
    .replace(/\b(\d\d)\/(\d\d)\/(20\d\d)\b/g, (_m, mo: string, d: string, y: string) => {
      const at = byDays(y, mo, d);
      return `${pad(at.getUTCMonth() + 1)}/${pad(at.getUTCDate())}/${at.getUTCFullYear()}`;
    })
    .replace(new RegExp(`\\b(\\d{1,2}) (${LONG_MONTHS.join('|')}) (20\\d\\d)\\b`, 'g'), (_m, d: string, mon: string, y: string) => {
      const at = byDays(y, LONG_MONTHS.indexOf(mon) + 1, d);
      return `${at.getUTCDate()} ${LONG_MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
    })
    .replace(new RegExp(`\\b(${LONG_MONTHS.join('|')})-(\\d{1,2})-(20\\d\\d)\\b`, 'g'), (_m, mon: string, d: string, y: string) => {
      const at = byDays(y, LONG_MONTHS.indexOf(mon) + 1, d);
      return `${LONG_MONTHS[at.getUTCMonth()]}-${at.getUTCDate()}-${at.getUTCFullYear()}`;
    });
}

/** The newest time in `text` at or before `notAfterS` (Unix s), by the same shapes `shiftTimes` moves; undefined when none. */
export function newestTime(text: string, notAfterS: number): number | undefined {
  const times = [
    ...[...text.matchAll(/(?<![\d.])(1[78]\d{11})(?![\d.])/g)].map((m) => Number(m[1]) / 1000),
    ...[...text.matchAll(/(?<![\d.])(1[78]\d{8})(?![\d.])/g)].map((m) => Number(m[1])),
    ...[...text.matchAll(ISO_DATE_TIME)].map(isoUnix),
    ...[...text.matchAll(DATE_ONLY)].map((m) => utcDay(m[1]!, m[2]!, m[3]!)),
    ...[...text.matchAll(COMPACT)].map((m) => utcDay(m[1]!, m[2]!, m[3]!) + Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6])),
  ].filter((t) => Number.isFinite(t) && t <= notAfterS);
  return times.length ? Math.max(...times) : undefined;
}
