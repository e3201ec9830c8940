import { invalidQ } from '../../core/errors.js';
import { noData } from '../../upstream/errors.js';
import { YahooChart } from '../../sources/lib/yahoo-chart.js';
import type { Candle } from '../candles.js';
import type { CandleProvider } from './index.js';

/** Yahoo's chart arrays are parallel and may hold nulls (halted days); those entries are dropped. */
export function chartToCandles(raw: YahooChart): Candle[] {
  const result = raw.chart.result?.[0];
  const quote = result?.indicators.quote[0];
  if (!result?.timestamp || !quote) return [];
  return result.timestamp.flatMap((t, i) => {
    const [o, h, l, c, v] = [quote.open[i], quote.high[i], quote.low[i], quote.close[i], quote.volume[i]];
    return o == null || h == null || l == null || c == null ? [] : [{ t, o, h, l, c, v: v ?? 0 }];
  });
}

export function stockTicker(q: string): string {
  const ticker = q.trim().toUpperCase();
  if (!/^[A-Z0-9][A-Z0-9.\-^=]{0,14}$/.test(ticker)) throw invalidQ('<ticker> such as AAPL or BRK-B', 'AAPL');
  return ticker;
}

export const yahooDailyCandles: CandleProvider = {
  host: 'yahoo',
  intervals: ['1d'],
  parseQ: stockTicker,
  async fetch(http, ticker, interval, from, to, _max, deadline) {
    const raw = await http.json<YahooChart>(`/v8/finance/chart/${encodeURIComponent(ticker)}`, YahooChart, {
      deadline,
      query: { period1: from, period2: to + 1, interval, events: 'history' },
    });
    if (!raw.chart.result) throw noData(`Yahoo has no chart for ${ticker}`);
    return chartToCandles(raw);
  },
};
