import type * as TradingSignals from 'trading-signals';
import { requireOnce } from './import-once.js';
import type { Candle } from './candles.js';

/** Loaded on the first series (backtests, the arena, the indicators source), not at start-up. */
const tradingSignals = requireOnce<typeof TradingSignals>('trading-signals');

/** Indicator values at one candle, computed from that candle and the ones before it only; undefined while warming up. */
export interface Snapshot {
  close: number;
  rsi2?: number;
  rsi14?: number;
  macd?: number;
  macdSignal?: number;
  macdHistogram?: number;
  bbLower?: number;
  bbMiddle?: number;
  bbUpper?: number;
  ema20?: number;
  ema50?: number;
}

/**
 * A streaming EMA seeded with the SMA of its first `period` values, as StockCharts and TA-Lib define
 * it. trading-signals' EMA starts from the first price instead and reports itself stable after
 * `period` prices, when that one price still carries ≈ 14% of EMA(50)'s weight. Returns undefined
 * until `period` values have been seen.
 */
export function seededEma(period: number): (value: number) => number | undefined {
  const { EMA, SMA } = tradingSignals();
  const seed = new SMA(period);
  const ema = new EMA(period);
  let seeded = false;
  return (value) => {
    if (seeded) return ema.add(value) ?? undefined;
    const sma = seed.add(value);
    if (sma === null) return undefined;
    seeded = true;
    return ema.add(sma) ?? undefined; // the EMA's first input is its seed, so its first value is the SMA
  };
}

/** MACD(fast, slow, signal) on seeded EMAs: line = EMA_fast − EMA_slow, signal = EMA of the line. */
export function macd(fast = 12, slow = 26, signalPeriod = 9) {
  const [emaFast, emaSlow, emaSignal] = [seededEma(fast), seededEma(slow), seededEma(signalPeriod)];
  return (value: number): { macd: number; signal?: number; histogram?: number } | undefined => {
    const [f, s] = [emaFast(value), emaSlow(value)];
    if (f === undefined || s === undefined) return undefined;
    const line = f - s;
    const signal = emaSignal(line);
    return { macd: line, signal, histogram: signal === undefined ? undefined : line - signal };
  };
}

/**
 * Streams closes through RSI 2 and 14 (Wilder), MACD 12/26/9, Bollinger 20/2 (population standard
 * deviation) and EMA 20/50, all from trading-signals. Element i depends on candles 0..i only, so
 * strategies cannot look ahead.
 */
export function indicatorSeries(candles: readonly Candle[]): Snapshot[] {
  const { BollingerBands, RSI } = tradingSignals();
  const rsi2 = new RSI(2);
  const rsi14 = new RSI(14);
  const bb = new BollingerBands(20, 2);
  const nextMacd = macd();
  const ema20 = seededEma(20);
  const ema50 = seededEma(50);
  return candles.map(({ c }) => {
    const m = nextMacd(c);
    const b = bb.add(c);
    return {
      close: c,
      rsi2: rsi2.add(c) ?? undefined,
      rsi14: rsi14.add(c) ?? undefined,
      macd: m?.macd,
      macdSignal: m?.signal,
      macdHistogram: m?.histogram,
      bbLower: b?.lower,
      bbMiddle: b?.middle,
      bbUpper: b?.upper,
      ema20: ema20(c),
      ema50: ema50(c),
    };
  });
}
