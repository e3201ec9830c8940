/**
 * When published series of the demo world have a new value: the observation periods of daily, weekday, weekly,
 * monthly and quarterly series, and how long after a period ends its value is released (FRED's DGS10 the next day,
 * CPI about two weeks after the month, GDP about four weeks after the quarter).
 */
export type Frequency = 'daily' | 'weekdays' | 'weekly-sat' | 'weekly-wed' | 'monthly' | 'quarterly';

export interface Period {
  /** The observation's date as the publisher writes it (YYYY-MM-DD). */
  date: string;
  /** Unix s of the period's start and end. */
  start: number;
  end: number;
}

const DAY_S = 86_400;
export const isoDay = (unixS: number): string => new Date(unixS * 1000).toISOString().slice(0, 10);
const dayOf = (unixS: number) => Math.floor(unixS / DAY_S) * DAY_S;
const weekday = (unixS: number) => new Date(unixS * 1000).getUTCDay();
const monthStart = (y: number, m: number) => Date.UTC(y, m, 1) / 1000;

/** The period containing `t`. */
function periodAt(frequency: Frequency, t: number): Period {
  const day = dayOf(t);
  const d = new Date(t * 1000);
  switch (frequency) {
    case 'daily':
    case 'weekdays':
      return { date: isoDay(day), start: day, end: day + DAY_S };
    case 'weekly-sat': {
      const saturday = day + ((6 - weekday(day) + 7) % 7) * DAY_S;
      return { date: isoDay(saturday), start: saturday - 6 * DAY_S, end: saturday + DAY_S };
    }
    case 'weekly-wed': {
      const wednesday = day + ((3 - weekday(day) + 7) % 7) * DAY_S;
      return { date: isoDay(wednesday), start: wednesday - 6 * DAY_S, end: wednesday + DAY_S };
    }
    case 'monthly': {
      const start = monthStart(d.getUTCFullYear(), d.getUTCMonth());
      return { date: isoDay(start), start, end: monthStart(d.getUTCFullYear(), d.getUTCMonth() + 1) };
    }
    case 'quarterly': {
      const q = Math.floor(d.getUTCMonth() / 3) * 3;
      const start = monthStart(d.getUTCFullYear(), q);
      return { date: isoDay(start), start, end: monthStart(d.getUTCFullYear(), q + 3) };
    }
  }
}

/** The released periods (released `releaseAfterS` after they ended), newest first, without end. */
function* released(frequency: Frequency, releaseAfterS: number, nowS: number): Generator<Period> {
  let period = periodAt(frequency, nowS - releaseAfterS - 1);
  if (period.end + releaseAfterS > nowS) period = periodAt(frequency, period.start - 1);
  for (;;) {
    if (frequency !== 'weekdays' || (weekday(period.start) !== 0 && weekday(period.start) !== 6)) yield period;
    period = periodAt(frequency, period.start - 1);
  }
}

/** The newest `count` periods whose value is out at `nowS`, newest first. */
export function releasedPeriods(frequency: Frequency, releaseAfterS: number, nowS: number, count: number): Period[] {
  const out: Period[] = [];
  for (const period of released(frequency, releaseAfterS, nowS)) {
    if (out.length >= count) break;
    out.push(period);
  }
  return out;
}

/** The released periods starting at or after `fromS`, oldest first (CSV downloads with a start date). */
export function releasedSince(frequency: Frequency, releaseAfterS: number, nowS: number, fromS: number): Period[] {
  const out: Period[] = [];
  for (const period of released(frequency, releaseAfterS, nowS)) {
    if (period.start < fromS) break;
    out.push(period);
  }
  return out.reverse();
}

/** The mean of `samples` evenly spaced values over a period (a monthly average), or the value at its end for daily ones. */
export function periodValue(period: Period, value: (t: number) => number, samples = 1): number {
  if (samples <= 1) return value(period.end - 3 * 3600);
  let sum = 0;
  for (let i = 0; i < samples; i++) sum += value(period.start + ((i + 0.5) / samples) * (period.end - period.start));
  return sum / samples;
}
