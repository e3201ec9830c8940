import Type from 'typebox';
import { currencyPair } from '../../sources/lib/q.js';
import type { Candle } from '../../core/candles.js';
import type { CandleProvider } from './index.js';

const TimeSeries = Type.Object({
  base: Type.String(),
  rates: Type.Record(Type.String(), Type.Record(Type.String(), Type.Number())),
});
type TimeSeries = Type.Static<typeof TimeSeries>;

/**
 * Frankfurter publishes one ECB reference rate per working day, not intraday trades: each candle
 * has o = h = l = c = that day's rate and v = 0 (documented in the API description).
 */
export function seriesToCandles(raw: TimeSeries, symbol: string): Candle[] {
  return Object.entries(raw.rates).flatMap(([date, rates]) => {
    const rate = rates[symbol];
    return rate === undefined ? [] : [{ t: Date.parse(`${date}T00:00:00Z`) / 1000, o: rate, h: rate, l: rate, c: rate, v: 0 }];
  });
}

const isoDate = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);

export const frankfurterDailyCandles: CandleProvider = {
  host: 'frankfurter',
  intervals: ['1d'],
  symbolOf: (pair) => currencyPair(pair).join(':'),
  async fetch(http, pair, _interval, from, to, _max, deadline) {
    const [base, symbol] = pair.split(':') as [string, string];
    const raw = await http.json<TimeSeries>(`/v1/${isoDate(from)}..${isoDate(to)}`, TimeSeries, {
      deadline,
      query: { base, symbols: symbol },
    });
    return seriesToCandles(raw, symbol);
  },
};
