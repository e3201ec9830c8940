import { ApiError } from '../../core/errors.js';
import type { Candle, Interval } from '../../core/candles.js';
import type { HostHttp } from '../../upstream/client.js';
import type { HostName } from '../../upstream/hosts.js';
import { binanceCandles } from './binance.js';
import { frankfurterDailyCandles } from './frankfurter.js';
import { yahooFxCandles, yahooStockCandles } from './yahoo.js';

export interface CandleProvider {
  host: HostName;
  /** The intervals this source can serve. */
  intervals: readonly Interval[];
  /** How far before now the upstream still serves an interval (seconds); an older `from` is a 400. None = no limit. */
  lookbackS?: Partial<Record<Interval, number>>;
  /** Validates q and returns the source's canonical symbol. */
  parseQ(q: string): string;
  fetch(http: HostHttp, symbol: string, interval: Interval, from: number, to: number, max: number, deadline: number): Promise<Candle[]>;
}

/**
 * Which candle source serves each backtestable type, first match by interval: exchange klines for crypto (every
 * interval), Yahoo charts for stocks (1m–1h intraday, 1d), ECB fixings via Frankfurter for daily forex and Yahoo's
 * `EURUSD=X` charts for intraday forex.
 */
export const CANDLE_PROVIDERS = {
  'crypto-price': [binanceCandles],
  'stock-quote': [yahooStockCandles],
  forex: [frankfurterDailyCandles, yahooFxCandles],
} as const satisfies Record<string, readonly CandleProvider[]>;

export type BacktestType = keyof typeof CANDLE_PROVIDERS;
export const BACKTEST_TYPES = Object.keys(CANDLE_PROVIDERS) as BacktestType[];

export const intervalsOf = (type: BacktestType): Interval[] => [...new Set(CANDLE_PROVIDERS[type].flatMap((p) => [...p.intervals]))];

/** The provider for this type and interval; an interval no source of the type serves is a 400 listing those it does. */
export function providerFor(type: BacktestType, interval: Interval): CandleProvider {
  const provider = (CANDLE_PROVIDERS[type] as readonly CandleProvider[]).find((p) => p.intervals.includes(interval));
  if (provider) return provider;
  const allowed = intervalsOf(type);
  throw new ApiError('validation_failed', `${type} candles come from sources that serve ${allowed.join(', ')} only`, {
    field: 'interval',
    rule: 'supported',
    allowed,
  });
}
