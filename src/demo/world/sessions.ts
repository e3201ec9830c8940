import type { Candle } from '../../core/candles.js';
import type { Market } from '../market.js';

/**
 * Trading sessions of the demo world, for answers that follow an exchange's hours: US equities, indexes and futures
 * trade 14:30–21:00 UTC on weekdays (no holidays, no daylight saving), currencies around the clock on weekdays. The
 * price path runs on between sessions, so a session can open with a gap, as real ones do.
 */
const DAY_S = 86_400;
const OPEN_S = 14.5 * 3600;
const CLOSE_S = 21 * 3600;

export interface Session {
  open: number;
  close: number;
}

const isWeekday = (dayStart: number) => ![0, 6].includes(new Date(dayStart * 1000).getUTCDay());

/** The session of the weekday starting at `dayStart`. */
const sessionOf = (dayStart: number, allDay: boolean): Session =>
  allDay ? { open: dayStart, close: dayStart + DAY_S } : { open: dayStart + OPEN_S, close: dayStart + CLOSE_S };

/** Sessions that opened in [from, to], oldest first. */
export function sessions(from: number, to: number, allDay = false): Session[] {
  const out: Session[] = [];
  for (let day = Math.floor(from / DAY_S) * DAY_S; day <= to; day += DAY_S) {
    const session = sessionOf(day, allDay);
    if (isWeekday(day) && session.open >= from && session.open <= to) out.push(session);
  }
  return out;
}

/** The latest session that has opened by `nowS`. */
export function lastSession(nowS: number, allDay = false): Session {
  for (let day = Math.floor(nowS / DAY_S) * DAY_S; ; day -= DAY_S) {
    const session = sessionOf(day, allDay);
    if (isWeekday(day) && session.open <= nowS) return session;
  }
}

/** The last traded instant: now inside a session, else the last close. */
export const lastTrade = (nowS: number, allDay = false): number => Math.min(nowS, lastSession(nowS, allDay).close);

/** Bars of `stepS` inside the sessions opening in [from, to] (a daily bar is the whole session), cut at `nowS`. */
export function sessionBars(
  market: Market,
  asset: string,
  stepS: number,
  from: number,
  to: number,
  nowS: number,
  allDay = false,
): Candle[] {
  const bars: Candle[] = [];
  for (const session of sessions(from - (stepS >= DAY_S ? 0 : DAY_S), Math.min(to, nowS), allDay)) {
    const length = session.close - session.open;
    const step = stepS >= DAY_S ? length : stepS;
    for (let t = session.open; t < session.close && t <= nowS; t += step) {
      if (t >= from && t <= to) bars.push(market.candle(asset, t, Math.min(step, session.close - t), nowS));
    }
  }
  return bars;
}
