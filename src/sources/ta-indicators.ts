import Type from 'typebox';
import { roundTo } from '../core/numbers.js';
import { invalidQ } from '../core/errors.js';
import { INTERVAL_SECONDS, normalizeCandles, type Candle } from '../core/candles.js';
import { Klines, klineToCandle } from '../upstream/formats/binance-klines.js';
import { binancePair, binanceQuote } from './lib/q.js';
import { indicatorSeries } from '../core/indicators.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';

const INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
type Interval = (typeof INTERVALS)[number];
/** Enough history for MACD's signal line and RSI's smoothing to settle. */
const CANDLES = 200;
/** Coinbase offers these granularities only (no 4h). */
const COINBASE_GRANULARITY: Partial<Record<Interval, number>> = { '1m': 60, '5m': 300, '15m': 900, '1h': 3600, '1d': 86_400 };

export interface TaQuery {
  symbol: string;
  interval: Interval;
}

export function parseTaQ(q: string): TaQuery {
  const parts = q.split(':');
  const [symbol = '', interval = ''] = parts;
  if (parts.length !== 2 || !/^[A-Za-z0-9]{2,10}$/.test(symbol) || !INTERVALS.includes(interval as Interval)) {
    throw invalidQ(`<asset_symbol>:<candle_interval> with an interval in ${INTERVALS.join(', ')}`, 'BTC:1h');
  }
  return { symbol: symbol.toUpperCase(), interval: interval as Interval };
}

/** Coinbase: [time s, low, high, open, close, volume], newest first. */
const CoinbaseCandles = Type.Array(Type.Array(Type.Number(), { minItems: 6 }));

/** The latest closed candle's RSI(14), MACD(12, 26, 9) and Bollinger(20, 2), from candles oldest first, priced in `quote`. */
export function toRows(q: TaQuery, raw: Candle[], nowS: number, quote: string): Row[] {
  const step = INTERVAL_SECONDS[q.interval];
  const candles = normalizeCandles(raw, { from: 0, to: nowS, nowS, intervalS: step });
  const last = indicatorSeries(candles).at(-1);
  if (!last || last.rsi14 === undefined || last.macd === undefined || last.bbMiddle === undefined)
    throw noData(`too few ${q.interval} candles for ${q.symbol}`);
  const round = (n: number | undefined) => (n === undefined ? null : roundTo(n, 6));
  return [
    {
      symbol: q.symbol,
      quote,
      interval: q.interval,
      close: last.close,
      rsi_14: round(last.rsi14),
      macd: round(last.macd),
      macd_signal: round(last.macdSignal),
      macd_histogram: round(last.macdHistogram),
      bb_upper: round(last.bbUpper),
      bb_middle: round(last.bbMiddle),
      bb_lower: round(last.bbLower),
      candles_used: candles.length,
      as_of: candles.at(-1)!.t + step,
    },
  ];
}

/**
 * Rows: symbol, quote (the currency of the candles: USDT on Binance, USD on Coinbase), interval, close, rsi_14, macd,
 * macd_signal, macd_histogram, bb_upper, bb_middle, bb_lower, candles_used.
 */
export default defineSource<TaQuery>({
  type: 'ta-indicators',
  categories: ['crypto', 'trader', 'ta'],
  qShape: '<asset_symbol>:<candle_interval>',
  example: 'BTC:1h',
  desc: '`<asset_symbol>:<candle_interval>`; RSI(14), MACD, Bollinger Bands',
  parseQ: parseTaQ,
  keyOf: (q) => `${q.symbol}:${q.interval}`,
  namesInstrument: true,
  instrumentOf: (key) => parseTaQ(key).symbol,
  ttlSeconds: 60,
  deadlineMs: 5000,
  entityQ: (e) => (e.type === 'crypto' && e.ids.binance ? `${e.ids.symbol}:1h` : undefined),
  upstreams: {
    binance: async (q, { http, deadline, clock }) => {
      const pair = binancePair(q.symbol);
      const rows = await http.json<Klines>('/api/v3/klines', Klines, {
        deadline,
        query: { symbol: pair, interval: q.interval, limit: CANDLES + 1 },
      });
      return toRows(q, rows.map(klineToCandle), Math.floor(clock.now() / 1000), binanceQuote(pair));
    },
    'coinbase-exchange': async (q, { http, deadline, clock }) => {
      const granularity = COINBASE_GRANULARITY[q.interval];
      if (!granularity) throw noData(`Coinbase has no ${q.interval} candles`);
      const rows = await http.json<number[][]>(`/products/${q.symbol}-USD/candles`, CoinbaseCandles, { deadline, query: { granularity } });
      const candles = rows.map(([t, l, h, o, c, v]) => ({ t: t!, o: o!, h: h!, l: l!, c: c!, v: v! })).reverse();
      return toRows(q, candles, Math.floor(clock.now() / 1000), 'USD');
    },
  },
});
