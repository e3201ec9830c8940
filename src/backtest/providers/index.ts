import { ApiError } from '../../core/errors.js';
import { INTERVALS, type Candle, type Interval } from '../../core/candles.js';
import type { HostHttp } from '../../upstream/client.js';
import type { HostName } from '../../upstream/hosts.js';
import type { MarketState } from '../../upstream/formats/yahoo-chart.js';
import { binanceCandleProvider } from './binance.js';
import { frankfurterDailyCandles } from './frankfurter.js';
import { yahooFxCandles, yahooStockCandles } from './yahoo.js';

export interface CandleProvider {
  host: HostName;
  /** The intervals this source can serve. */
  intervals: readonly Interval[];
  /** How far before now the upstream still serves an interval (seconds); an older `from` is a 400. None = no limit. */
  lookbackS?: Partial<Record<Interval, number>>;
  /**
   * The source's symbol for a q the type's vocabulary already resolved (its canonical key: `bitcoin`, `AAPL`, `EUR:USD`);
   * `unknown()` is the 404 to throw for one the source has no symbol for.
   */
  symbolOf(key: string, unknown: () => Error): string;
  fetch(http: HostHttp, symbol: string, interval: Interval, from: number, to: number, max: number, deadline: number): Promise<Candle[]>;
  /** Whether the symbol's market is open, pre, post or closed at `nowS`, for sources that say so (Yahoo's trading period). */
  marketState?(http: HostHttp, symbol: string, nowS: number, deadline: number): Promise<MarketState | null>;
}

/**
 * Which candle source serves each backtestable type, first match by interval: exchange klines for crypto (every
 * interval), Yahoo charts for stocks (1m–1h intraday, 1d), ECB fixings via Frankfurter for daily forex and Yahoo's
 * `EURUSD=X` charts for intraday forex.
 */
export const CANDLE_PROVIDERS = {
  'crypto-price': [binanceCandleProvider],
  'stock-quote': [yahooStockCandles],
  forex: [frankfurterDailyCandles, yahooFxCandles],
} as const satisfies Record<string, readonly CandleProvider[]>;

export type BacktestType = keyof typeof CANDLE_PROVIDERS;
export const BACKTEST_TYPES = Object.keys(CANDLE_PROVIDERS) as BacktestType[];

/** Intervals svc builds from a shorter one when no source of the type serves them (4h stock and forex bars exist nowhere free). */
export const AGGREGATED_FROM: Partial<Record<Interval, Interval>> = { '4h': '1h' };

const providersOf = (type: BacktestType): readonly CandleProvider[] => CANDLE_PROVIDERS[type];
const nativeProvider = (type: BacktestType, interval: Interval) => providersOf(type).find((p) => p.intervals.includes(interval));

/** Every interval a type answers: those its sources serve, plus those svc aggregates from a served one. */
export function intervalsOf(type: BacktestType): Interval[] {
  const served = new Set(providersOf(type).flatMap((p) => [...p.intervals]));
  return INTERVALS.filter((i) => served.has(i) || served.has(AGGREGATED_FROM[i]!));
}

/** The source that tells a type's market state (stocks and currencies: Yahoo), if any; crypto trades around the clock. */
export const marketStateSource = (type: BacktestType): CandleProvider | undefined =>
  providersOf(type).find((p) => p.marketState !== undefined);

/** Where an interval's candles come from: a source serving it, or one serving the interval it is aggregated from. */
export interface CandleSource {
  provider: CandleProvider;
  /** The interval the source is asked for; differs from the requested one when svc aggregates. */
  sourceInterval: Interval;
}

/** The source for this type and interval; an interval no source of the type serves (even to aggregate) is a 400 listing those it does. */
export function sourceFor(type: BacktestType, interval: Interval): CandleSource {
  const provider = nativeProvider(type, interval);
  if (provider) return { provider, sourceInterval: interval };
  const shorter = AGGREGATED_FROM[interval];
  const fromShorter = shorter && nativeProvider(type, shorter);
  if (shorter && fromShorter) return { provider: fromShorter, sourceInterval: shorter };
  const allowed = intervalsOf(type);
  throw new ApiError('validation_failed', `${type} candles come from sources that serve ${allowed.join(', ')} only`, {
    field: 'interval',
    rule: 'supported',
    allowed,
  });
}
