import type { HostHttp } from './client.js';
import { INTERVAL_SECONDS, type Candle, type Interval } from '../core/candles.js';
import { Klines, klineToCandle } from './formats/binance-klines.js';

/** The most klines Binance answers in one request. */
const PAGE = 1000;

async function page(http: HostHttp, pair: string, interval: Interval, startMs: number, endMs: number, deadline: number): Promise<Candle[]> {
  const rows = await http.json<Klines>('/api/v3/klines', Klines, {
    deadline,
    query: { symbol: pair, interval, startTime: startMs, endTime: endMs, limit: PAGE },
  });
  return rows.map(klineToCandle);
}

/** Pages forward 1,000 klines at a time until the range (unix seconds) or `max` candles are covered. */
async function fetchCandles(
  http: HostHttp,
  pair: string,
  interval: Interval,
  from: number,
  to: number,
  max: number,
  deadline: number,
): Promise<Candle[]> {
  const step = INTERVAL_SECONDS[interval];
  const candles: Candle[] = [];
  for (let start = from; start <= to && candles.length < max;) {
    const batch = await page(http, pair, interval, start * 1000, to * 1000, deadline);
    candles.push(...batch);
    if (batch.length < PAGE) break;
    start = batch[batch.length - 1]!.t + step;
  }
  return candles;
}

/**
 * Binance klines as candles: the one candle client of the backtests, the arena, the olympics and the chart trades
 * (each names its pair, e.g. `BTCUSDT`; the backtest's provider resolves a q to one first).
 */
export const binanceCandles = { fetch: fetchCandles };
