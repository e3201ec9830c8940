import Type from 'typebox';
import { invalidQ } from '../../core/errors.js';
import type { HostHttp } from '../../upstream/client.js';
import { INTERVAL_SECONDS, INTERVALS, type Candle, type Interval } from '../candles.js';
import type { CandleProvider } from './index.js';

/** Binance kline rows: [openTime ms, open, high, low, close, volume, closeTime ms, …] with prices as strings. */
const Klines = Type.Array(Type.Array(Type.Union([Type.Number(), Type.String()]), { minItems: 6 }));
const PAGE = 1000;

export const klineToCandle = (k: (number | string)[]): Candle => ({
  t: Math.floor(Number(k[0]) / 1000),
  o: Number(k[1]),
  h: Number(k[2]),
  l: Number(k[3]),
  c: Number(k[4]),
  v: Number(k[5]),
});

/** `BTC`, `btc` or `BTCUSDT` → a Binance USDT pair. */
export function binancePair(q: string): string {
  const symbol = q.trim().toUpperCase();
  if (!/^[A-Z0-9]{2,12}$/.test(symbol)) throw invalidQ('<asset_symbol> such as BTC, or a Binance pair such as BTCUSDT', 'BTC');
  return /(USDT|USDC|FDUSD|BTC|ETH)$/.test(symbol) && symbol.length > 5 ? symbol : `${symbol}USDT`;
}

async function page(http: HostHttp, pair: string, interval: Interval, startMs: number, endMs: number, deadline: number): Promise<Candle[]> {
  const rows = await http.json<(number | string)[][]>('/api/v3/klines', Klines, {
    deadline,
    query: { symbol: pair, interval, startTime: startMs, endTime: endMs, limit: PAGE },
  });
  return rows.map(klineToCandle);
}

export const binanceCandles: CandleProvider = {
  host: 'binance',
  intervals: INTERVALS,
  parseQ: binancePair,
  /** Pages forward 1,000 klines at a time until the range or `max` candles are covered. */
  async fetch(http, pair, interval, from, to, max, deadline) {
    const step = INTERVAL_SECONDS[interval];
    const candles: Candle[] = [];
    for (let start = from; start <= to && candles.length < max; ) {
      const batch = await page(http, pair, interval, start * 1000, to * 1000, deadline);
      candles.push(...batch);
      if (batch.length < PAGE) break;
      start = batch[batch.length - 1]!.t + step;
    }
    return candles;
  },
};
