import type { HostHttp } from '../../upstream/client.js';
import type { HostName } from '../../upstream/hosts.js';
import type { Candle, Interval } from '../candles.js';
import { binanceCandles } from './binance.js';
import { frankfurterDailyCandles } from './frankfurter.js';
import { yahooDailyCandles } from './yahoo.js';

export interface CandleProvider {
  host: HostName;
  /** The intervals this source can serve; others are a 400 naming these. */
  intervals: readonly Interval[];
  /** Validates q and returns the source's canonical symbol. */
  parseQ(q: string): string;
  fetch(http: HostHttp, symbol: string, interval: Interval, from: number, to: number, max: number, deadline: number): Promise<Candle[]>;
}

/** Which candle source serves each backtestable type: exchange klines for crypto, daily sources for stocks and forex. */
export const CANDLE_PROVIDERS = {
  'crypto-price': binanceCandles,
  'stock-quote': yahooDailyCandles,
  forex: frankfurterDailyCandles,
} as const satisfies Record<string, CandleProvider>;

export type BacktestType = keyof typeof CANDLE_PROVIDERS;
export const BACKTEST_TYPES = Object.keys(CANDLE_PROVIDERS) as BacktestType[];
