/** An OHLCV candle; `t` is the open time in Unix seconds. */
export interface Candle {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

export const INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type Interval = (typeof INTERVALS)[number];

export const INTERVAL_SECONDS: Record<Interval, number> = { '1m': 60, '5m': 300, '15m': 900, '1h': 3600, '4h': 14_400, '1d': 86_400 };

const isFiniteCandle = (c: Candle) => [c.t, c.o, c.h, c.l, c.c, c.v].every(Number.isFinite);
const isConsistent = (c: Candle) => c.l <= Math.min(c.o, c.c) && c.h >= Math.max(c.o, c.c) && c.v >= 0;

/**
 * Candles as backtests need them: inside [from, to], closed by `nowS` (no look-ahead: a candle still
 * forming is left out), sorted ascending, one per `t`, and only internally consistent ones — a
 * candle whose low is above its open or close is dropped rather than repaired.
 */
export function normalizeCandles(candles: Candle[], range: { from: number; to: number; nowS: number; intervalS: number }): Candle[] {
  const byTime = new Map<number, Candle>();
  for (const c of candles) {
    if (!isFiniteCandle(c) || !isConsistent(c)) continue;
    if (c.t < range.from || c.t > range.to || c.t + range.intervalS > range.nowS) continue;
    byTime.set(c.t, c);
  }
  return [...byTime.values()].sort((a, b) => a.t - b.t);
}

/**
 * Candles of a longer interval from sorted candles of a shorter one, in UTC-aligned buckets of `bucketS`
 * (for 4h: 00:00, 04:00, 08:00 … UTC): open of the first, close of the last, highest high, lowest low, summed volume.
 * A bucket with no source candle (a closed market) yields no candle.
 */
export function aggregateCandles(sorted: Candle[], bucketS: number): Candle[] {
  const out: Candle[] = [];
  for (const c of sorted) {
    const t = Math.floor(c.t / bucketS) * bucketS;
    const last = out[out.length - 1];
    if (last?.t === t) {
      Object.assign(last, { h: Math.max(last.h, c.h), l: Math.min(last.l, c.l), c: c.c, v: last.v + c.v });
    } else {
      out.push({ ...c, t });
    }
  }
  return out;
}
