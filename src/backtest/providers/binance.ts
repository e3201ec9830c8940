import type { HostHttp } from '../../upstream/client.js';
import { INTERVAL_SECONDS, INTERVALS, type Candle, type Interval } from '../../core/candles.js';
import type { CandleProvider } from './index.js';

import { invalidQ } from '../../core/errors.js';
import { binancePair } from '../../sources/lib/q.js';
import { binancePairOf } from '../../sources/lib/entities.js';
import { Klines, klineToCandle } from '../../upstream/formats/binance-klines.js';

const PAGE = 1000;

async function page(http: HostHttp, pair: string, interval: Interval, startMs: number, endMs: number, deadline: number): Promise<Candle[]> {
  const rows = await http.json<Klines>('/api/v3/klines', Klines, {
    deadline,
    query: { symbol: pair, interval, startTime: startMs, endTime: endMs, limit: PAGE },
  });
  return rows.map(klineToCandle);
}

/** One coin's pair: the entity graph's USDT pair for a known coin, else the q read as a symbol or pair (`PEPE`, `ETHBTC`). */
function klinePair(coins: string, unknown: () => Error): string {
  if (coins.includes(',')) throw invalidQ('one coin (backtests read one series)', 'BTC');
  try {
    return binancePairOf(coins) ?? binancePair(coins);
  } catch {
    throw unknown();
  }
}

export const binanceCandles: CandleProvider = {
  host: 'binance',
  intervals: INTERVALS,
  symbolOf: klinePair,
  /** Pages forward 1,000 klines at a time until the range or `max` candles are covered. */
  async fetch(http, pair, interval, from, to, max, deadline) {
    const step = INTERVAL_SECONDS[interval];
    const candles: Candle[] = [];
    for (let start = from; start <= to && candles.length < max;) {
      const batch = await page(http, pair, interval, start * 1000, to * 1000, deadline);
      candles.push(...batch);
      if (batch.length < PAGE) break;
      start = batch[batch.length - 1]!.t + step;
    }
    return candles;
  },
};
