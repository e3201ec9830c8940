import { INTERVALS } from '../../core/candles.js';
import type { CandleProvider } from './index.js';

import { invalidQ } from '../../core/errors.js';
import { binancePair } from '../../sources/lib/q.js';
import { binancePairOf } from '../../sources/lib/entities.js';
import { binanceCandles } from '../../upstream/binance-candles.js';

/** One coin's pair: the entity graph's USDT pair for a known coin, else the q read as a symbol or pair (`PEPE`, `ETHBTC`). */
function klinePair(coins: string, unknown: () => Error): string {
  if (coins.includes(',')) throw invalidQ('one coin (backtests read one series)', 'BTC');
  try {
    return binancePairOf(coins) ?? binancePair(coins);
  } catch {
    throw unknown();
  }
}

/** Crypto backtests: exchange klines at every interval (the fetching is upstream/binance-candles.ts, shared with the arena). */
export const binanceCandleProvider: CandleProvider = {
  host: 'binance',
  intervals: INTERVALS,
  symbolOf: klinePair,
  fetch: binanceCandles.fetch,
};
