import type { Interval } from '../../core/candles.js';
import { currencyPair, stockTicker } from '../../sources/lib/q.js';
import { noData } from '../../upstream/errors.js';
import { YahooChart, marketState, yahooBars } from '../../upstream/formats/yahoo-chart.js';
import type { CandleProvider } from './index.js';

const DAY_S = 86_400;
/** Yahoo's chart limits: intraday bars only this far back, and a 1m request spans at most 7 days (longer ranges are paged). */
const LOOKBACK_S: Partial<Record<Interval, number>> = { '1m': 30 * DAY_S, '5m': 60 * DAY_S, '15m': 60 * DAY_S, '1h': 730 * DAY_S };
const MAX_SPAN_S: Partial<Record<Interval, number>> = { '1m': 7 * DAY_S };
const INTERVALS = ['1m', '5m', '15m', '1h', '1d'] as const;

/** Yahoo chart candles for a Yahoo symbol, paged by the interval's longest request span; halted bars dropped. */
function yahooCandles(
  toSymbol: (canonical: string) => string,
  symbolOf: (key: string) => string,
  intervals: readonly Interval[],
): CandleProvider {
  return {
    host: 'yahoo',
    intervals,
    lookbackS: LOOKBACK_S,
    symbolOf,
    async marketState(http, canonical, nowS, deadline) {
      const query = { interval: '1d', range: '1d' };
      const raw = await http.json<YahooChart>(`/v8/finance/chart/${encodeURIComponent(toSymbol(canonical))}`, YahooChart, {
        deadline,
        query,
      });
      return marketState(raw, nowS);
    },
    async fetch(http, canonical, interval, from, to, _max, deadline) {
      const symbol = toSymbol(canonical);
      const span = MAX_SPAN_S[interval] ?? Infinity;
      const candles = [];
      for (let start = from; start <= to; start += span) {
        const query = { period1: start, period2: Math.min(to, start + span) + 1, interval, events: 'history' };
        const raw = await http.json<YahooChart>(`/v8/finance/chart/${encodeURIComponent(symbol)}`, YahooChart, { deadline, query });
        if (!raw.chart.result) throw noData(`Yahoo has no chart for ${symbol}`);
        candles.push(...yahooBars(raw));
      }
      return candles;
    },
  };
}

export const yahooStockCandles = yahooCandles((ticker) => ticker, stockTicker, INTERVALS);

/** Intraday forex from Yahoo's `<BASE><QUOTE>=X` charts (daily forex comes from the ECB fixings). */
export const yahooFxCandles = yahooCandles(
  (pair) => `${pair.replace(':', '')}=X`,
  (pair) => currencyPair(pair).join(':'),
  ['1m', '5m', '15m', '1h'],
);
