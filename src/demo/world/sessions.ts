import type { Candle } from '../../core/candles.js';
import type { Market } from '../market.js';
import { isTradingDay, tradingPeriod } from './us-calendar.js';

/**
 * Trading sessions of the demo world, for answers that follow an exchange's hours: US equities, indexes and futures
 * trade 09:30–16:00 New York time on the US exchange calendar (holidays and daylight saving included), currencies
 * around the clock on weekdays. The price path runs on between sessions, so a session can open with a gap, as real
 * ones do.
 */
const DAY_S = 86_400;

export interface Session {
  open: number;
  close: number;
}

const isWeekday = (dayStart: number) => ![0, 6].includes(new Date(dayStart * 1000).getUTCDay());
const trades = (dayStart: number, allDay: boolean) => (allDay ? isWeekday(dayStart) : isTradingDay(dayStart));

/** The session of the trading day starting at `dayStart`. */
function sessionOf(dayStart: number, allDay: boolean): Session {
  if (allDay) return { open: dayStart, close: dayStart + DAY_S };
  const { regular } = tradingPeriod(dayStart);
  return { open: regular.start, close: regular.end };
}

/** Sessions that opened in [from, to], oldest first. */
export function sessions(from: number, to: number, allDay = false): Session[] {
  const out: Session[] = [];
  for (let day = Math.floor(from / DAY_S) * DAY_S; day <= to; day += DAY_S) {
    const session = sessionOf(day, allDay);
    if (trades(day, allDay) && session.open >= from && session.open <= to) out.push(session);
  }
  return out;
}

/** The latest session that has opened by `nowS`. */
export function lastSession(nowS: number, allDay = false): Session {
  for (let day = Math.floor(nowS / DAY_S) * DAY_S; ; day -= DAY_S) {
    const session = sessionOf(day, allDay);
    if (trades(day, allDay) && session.open <= nowS) return session;
  }
}

/**
 * Yahoo's `currentTradingPeriod` (pre, regular, post) at `nowS`: today's once its pre-market has begun, else that of the
 * last trading day; currencies trade the whole UTC day, with no pre- or after-hours.
 */
export function currentTradingPeriod(nowS: number, allDay = false) {
  const today = Math.floor(nowS / DAY_S) * DAY_S;
  if (allDay) {
    const day = Math.floor(lastSession(nowS, true).open / DAY_S) * DAY_S;
    const edge = (t: number) => ({ start: t, end: t });
    return { pre: edge(day), regular: { start: day, end: day + DAY_S }, post: edge(day + DAY_S) };
  }
  const startedToday = trades(today, false) && tradingPeriod(today).pre.start <= nowS;
  return tradingPeriod(startedToday ? today : Math.floor(lastSession(nowS).open / DAY_S) * DAY_S);
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
