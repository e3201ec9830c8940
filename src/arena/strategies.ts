import type { Snapshot } from '../core/indicators.js';

export const STRATEGIES = ['rsi2_mean_reversion', 'rsi14_oversold', 'macd_bullish_div', 'bollinger_bounce', 'trend_following'] as const;
export type Strategy = (typeof STRATEGIES)[number];
export const ASSETS = ['BTC', 'ETH', 'SOL'] as const;
export type Asset = (typeof ASSETS)[number];

/** The bullish signals a trade records as `signals_lit`. */
export const SIGNALS = ['rsi2_oversold', 'rsi14_oversold', 'macd_bullish_div', 'bb_lower_touch', 'ema_cross_up'] as const;
export type Signal = (typeof SIGNALS)[number];

/**
 * Why a trade closed: the strategy's target (rsi2_target: RSI(2) > 70; rsi14_target: RSI(14) > 50;
 * macd_cross_down: MACD below its signal; bb_mid_target: close at or above the middle band;
 * trend_exit: EMA20 below EMA50), stop_loss, take_profit (chart-consensus), or max_hold after MAX_HOLD_CANDLES.
 */
export type ExitReason =
  'rsi2_target' | 'rsi14_target' | 'macd_cross_down' | 'bb_mid_target' | 'trend_exit' | 'stop_loss' | 'take_profit' | 'max_hold';

/** Indicator snapshots of the current candle and the ones just before it (oldest first). */
export type Decide<T> = (now: Snapshot, past: readonly Snapshot[]) => T;

export interface Rules {
  /** The signal this strategy enters on; it is always among a trade's signals_lit. */
  signal: Signal;
  enter: Decide<boolean>;
  target: Decide<ExitReason | undefined>;
  /** Percent below the entry price where the stop sits. */
  stopLossPct: number;
  /** Percent above the entry price where a take-profit sits, for strategies that have one. */
  takeProfitPct?: number;
}

/** Trades still open after this many candles are closed at the market. */
export const MAX_HOLD_CANDLES = 72;
/** How far back the divergence looks, and so how many past snapshots a decision needs. */
export const DIVERGENCE_LOOKBACK = 20;

const crossedUp = (prev: Snapshot | undefined, now: Snapshot) =>
  prev?.ema20 !== undefined &&
  prev.ema50 !== undefined &&
  now.ema20 !== undefined &&
  now.ema50 !== undefined &&
  prev.ema20 <= prev.ema50 &&
  now.ema20 > now.ema50;

/** Price makes a lower low than anything in the lookback while the MACD histogram makes a higher low, and the histogram is turning up. */
function bullishDivergence(now: Snapshot, past: readonly Snapshot[]): boolean {
  const window = past.slice(-DIVERGENCE_LOOKBACK);
  const prev = past.at(-1);
  if (now.macdHistogram === undefined || prev?.macdHistogram === undefined || window.length < DIVERGENCE_LOOKBACK) return false;
  const lowest = window.reduce((min, s) => (s.close < min.close ? s : min));
  return (
    now.close < lowest.close &&
    lowest.macdHistogram !== undefined &&
    now.macdHistogram > lowest.macdHistogram &&
    now.macdHistogram > prev.macdHistogram
  );
}

const closedBelowLowerBand = (s: Snapshot | undefined) => s?.bbLower !== undefined && s.close <= s.bbLower;

const SIGNAL_TESTS: Record<Signal, Decide<boolean>> = {
  rsi2_oversold: (now) => (now.rsi2 ?? 100) < 10,
  rsi14_oversold: (now) => (now.rsi14 ?? 100) < 30,
  macd_bullish_div: bullishDivergence,
  // This or the previous candle closed at or below the lower band: a bounce's entry candle is back above it.
  bb_lower_touch: (now, past) => closedBelowLowerBand(now) || closedBelowLowerBand(past.at(-1)),
  ema_cross_up: (now, past) => crossedUp(past.at(-1), now),
};

/** Every signal lit at one candle, in SIGNALS order. */
export const litSignals: Decide<Signal[]> = (now, past) => SIGNALS.filter((signal) => SIGNAL_TESTS[signal](now, past));

export const RULES: Record<Strategy, Rules> = {
  rsi2_mean_reversion: {
    signal: 'rsi2_oversold',
    // only dips within 3% under the 50 EMA: mean reversion in an intact trend, not a falling knife
    enter: (now, past) => SIGNAL_TESTS.rsi2_oversold(now, past) && now.ema50 !== undefined && now.close > now.ema50 * 0.97,
    target: (now) => ((now.rsi2 ?? 0) > 70 ? 'rsi2_target' : undefined),
    stopLossPct: 3,
  },
  rsi14_oversold: {
    signal: 'rsi14_oversold',
    enter: SIGNAL_TESTS.rsi14_oversold,
    target: (now) => ((now.rsi14 ?? 0) > 50 ? 'rsi14_target' : undefined),
    stopLossPct: 4,
  },
  macd_bullish_div: {
    signal: 'macd_bullish_div',
    enter: bullishDivergence,
    target: (now) => (now.macd !== undefined && now.macdSignal !== undefined && now.macd < now.macdSignal ? 'macd_cross_down' : undefined),
    stopLossPct: 4,
  },
  bollinger_bounce: {
    signal: 'bb_lower_touch',
    enter: (now, past) => closedBelowLowerBand(past.at(-1)) && now.bbLower !== undefined && now.close > now.bbLower,
    target: (now) => (now.bbMiddle !== undefined && now.close >= now.bbMiddle ? 'bb_mid_target' : undefined),
    stopLossPct: 3,
  },
  trend_following: {
    signal: 'ema_cross_up',
    enter: SIGNAL_TESTS.ema_cross_up,
    target: (now) => (now.ema20 !== undefined && now.ema50 !== undefined && now.ema20 < now.ema50 ? 'trend_exit' : undefined),
    stopLossPct: 5,
  },
};

/**
 * Trades opened from a chart analysis (src/chart/), not from candles: outside STRATEGIES, so the
 * candle-driven runs never touch them. Exits: a symmetric 4% stop and 4% take-profit, else max_hold.
 */
export const CHART_CONSENSUS = 'chart-consensus' as const;
export type ChartStrategy = typeof CHART_CONSENSUS;
/** Any strategy a trade row may carry. */
export type AnyStrategy = Strategy | ChartStrategy;
const CHART_RULES: Omit<Rules, 'signal'> = { enter: () => false, target: () => undefined, stopLossPct: 4, takeProfitPct: 4 };

/** Every rule set by strategy name, chart-consensus included. */
export const rulesOf = (strategy: AnyStrategy): Omit<Rules, 'signal'> => (strategy === CHART_CONSENSUS ? CHART_RULES : RULES[strategy]);

/**
 * predicted_p from the number of signals lit at entry (the strategy's own signal included): 0.5 for
 * its own signal alone, +0.05 for each confirming one, so 0.5 to 0.7. A heuristic, recorded as a
 * calibration claim so the ledger can tell how good it is. Computed as (10 + k)/20 so the values are
 * the exact doubles 0.5, 0.55, … (0.5 + 0.05·3 would be 0.6500000000000001).
 */
export const predictedP = (signalsLit: number): number => (10 + Math.min(SIGNALS.length - 1, Math.max(0, signalsLit - 1))) / 20;
