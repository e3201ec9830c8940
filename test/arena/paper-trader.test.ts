import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Candle } from '../../src/core/candles.js';
import type { TradeRow } from '../../src/store/repos/arena.js';
import { resumeAfter, settle, simulate, type PaperTrade } from '../../src/arena/paper-trader.js';
import { MAX_HOLD_CANDLES, RULES, SIGNALS, STRATEGIES, predictedP, type Strategy } from '../../src/arena/strategies.js';
import { HOUR, candlesFromCloses, closeMs, tradeRow, wavyCandles } from './synthetic-candles.js';

const TARGET_OF: Record<Strategy, string> = {
  rsi2_mean_reversion: 'rsi2_target',
  rsi14_oversold: 'rsi14_target',
  macd_bullish_div: 'macd_cross_down',
  bollinger_bounce: 'bb_mid_target',
  trend_following: 'trend_exit',
};

const toRow = (strategy: Strategy, t: PaperTrade) => tradeRow(strategy, t);

/** What a run that ended at `cutMs` knew of a trade: its exit only if that had happened. */
const asOf = (t: PaperTrade, cutMs: number): PaperTrade =>
  t.exit_ts !== null && t.exit_ts <= cutMs ? t : { ...t, exit_ts: null, exit_price: null, exit_reason: null };

describe('predicted_p', () => {
  it('is 0.5 for the own signal alone, +0.05 per confirming signal, exact decimals', () => {
    expect([1, 2, 3, 4, 5].map(predictedP)).toEqual([0.5, 0.55, 0.6, 0.65, 0.7]);
    expect(predictedP(0)).toBe(0.5);
    expect(predictedP(9)).toBe(0.7);
  });
});

describe('simulate on a synthetic market', () => {
  const candles = wavyCandles(1500);
  const runs = STRATEGIES.map((strategy) => [strategy, simulate(strategy, candles, HOUR)] as const);

  it.each(runs)('%s trades, records its own signal, and derives predicted_p from the signals lit', (strategy, trades) => {
    expect(trades.length).toBeGreaterThan(3);
    for (const t of trades) {
      expect(t.signals_lit).toContain(RULES[strategy].signal);
      expect(t.signals_lit.every((s) => (SIGNALS as readonly string[]).includes(s))).toBe(true);
      expect(t.predicted_p).toBe(predictedP(t.signals_lit.length));
      expect(candles.some((c) => (c.t + HOUR) * 1000 === t.entry_ts && c.c === t.entry_price)).toBe(true);
    }
  });

  it.each(runs)('%s holds one position at a time and exits only by its target, the stop or max_hold', (strategy, trades) => {
    trades.slice(0, -1).forEach((t) => expect(t.exit_ts).not.toBeNull());
    for (const [a, b] of trades.slice(0, -1).map((t, i) => [t, trades[i + 1]!] as const)) expect(b.entry_ts).toBeGreaterThan(a.exit_ts!);
    for (const t of trades.filter((x) => x.exit_ts !== null)) {
      expect([TARGET_OF[strategy], 'stop_loss', 'max_hold']).toContain(t.exit_reason);
      expect(t.exit_ts!).toBeGreaterThan(t.entry_ts);
      expect(t.exit_ts! - t.entry_ts).toBeLessThanOrEqual(MAX_HOLD_CANDLES * HOUR * 1000);
      if (t.exit_reason === 'stop_loss')
        expect(t.exit_price!).toBeLessThanOrEqual(t.entry_price * (1 - RULES[strategy].stopLossPct / 100) + 1e-9);
      const closed = settle(t)!;
      expect(closed.outcome).toBe(closed.pnl_pct > 0 ? 1 : 0);
      expect(closed.duration_s).toBe((t.exit_ts! - t.entry_ts) / 1000);
      expect(closed.pnl_pct).toBeCloseTo(((t.exit_price! - t.entry_price) / t.entry_price) * 100, 12);
    }
  });

  it('never looks ahead: cutting off the future leaves every earlier decision as it was', () => {
    const full = new Map(runs);
    fc.assert(
      fc.property(fc.constantFrom(...STRATEGIES), fc.integer({ min: 0, max: 1500 }), (strategy, cut) => {
        const cutMs = cut === 0 ? 0 : closeMs(cut - 1);
        const known = full
          .get(strategy)!
          .filter((t) => t.entry_ts <= cutMs)
          .map((t) => asOf(t, cutMs));
        expect(simulate(strategy, candles.slice(0, cut), HOUR)).toEqual(known);
      }),
      { numRuns: 60 },
    );
  });

  it('resumes: a run continuing after recorded trades reproduces the single run', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STRATEGIES), fc.integer({ min: 1, max: 1499 }), (strategy, cut) => {
        const first = simulate(strategy, candles.slice(0, cut), HOUR);
        const rest = simulate(strategy, candles, HOUR, resumeAfter(first.map((t) => toRow(strategy, t))));
        const joined = [...first.filter((t) => t.exit_ts !== null), ...rest];
        expect(joined).toEqual(full(strategy));
      }),
      { numRuns: 60 },
    );
    function full(strategy: Strategy) {
      return runs.find(([s]) => s === strategy)![1];
    }
  });

  it('a live job on a sliding 300-candle window, resuming each time, records the continuous history and no phantom trades', () => {
    const market = wavyCandles(300 + 7 * 150, 5); // the last window ends at the last candle
    for (const strategy of STRATEGIES) {
      const recorded = new Map<number, TradeRow>();
      for (let end = 300; end <= market.length; end += 7) {
        for (const t of simulate(strategy, market.slice(end - 300, end), HOUR, resumeAfter([...recorded.values()])))
          recorded.set(t.entry_ts, toRow(strategy, t));
      }
      const continuous = simulate(strategy, market, HOUR).filter((t) => t.entry_ts > closeMs(299));
      const live = [...recorded.values()].filter((r) => r.entry_ts > closeMs(299)).sort((a, b) => a.entry_ts - b.entry_ts);
      expect(
        live.map((r) => [r.entry_ts, r.exit_ts, r.exit_reason]),
        strategy,
      ).toEqual(continuous.map((t) => [t.entry_ts, t.exit_ts, t.exit_reason]));
    }
  });

  it('trades nothing on too few candles', () => {
    for (const strategy of STRATEGIES) {
      expect(simulate(strategy, [], HOUR)).toEqual([]);
      expect(simulate(strategy, candles.slice(0, 2), HOUR)).toEqual([]);
    }
  });
});

describe('exits, by hand (rsi14_oversold: enters when RSI(14) < 30, stop 4% below entry)', () => {
  // 15 falling closes 100 … 86 make RSI(14) = 0 at the 15th: entry at 86, stop at 82.56.
  const falling = Array.from({ length: 15 }, (_, i) => 100 - i);
  // RSI(2) is 0 too, so rsi2_oversold confirms: two signals lit → predicted_p 0.55.
  const entry = { entry_ts: closeMs(14), entry_price: 86, predicted_p: 0.55, signals_lit: ['rsi2_oversold', 'rsi14_oversold'] };
  const first = (candles: Candle[]) => simulate('rsi14_oversold', candles, HOUR)[0];

  it('enters at the close of the candle that lights the signal, and stays open without an exit', () => {
    expect(simulate('rsi14_oversold', candlesFromCloses(falling), HOUR)).toEqual([
      { ...entry, exit_ts: null, exit_price: null, exit_reason: null },
    ]);
  });

  it('takes its target when RSI(14) climbs above 50: after the 10th rising close (Wilder: 13/14^k < 1/2)', () => {
    const rising = Array.from({ length: 12 }, (_, i) => 87 + i);
    const trade = first(candlesFromCloses([...falling, ...rising]))!;
    expect(trade).toEqual({ ...entry, exit_ts: closeMs(24), exit_price: 96, exit_reason: 'rsi14_target' });
    expect(settle(trade)).toMatchObject({ pnl_pct: expect.closeTo((10 / 86) * 100, 12), outcome: 1, duration_s: 10 * HOUR });
  });

  it('stops out at the stop price when a candle trades through it', () => {
    const trade = first(candlesFromCloses([...falling, 85], { 15: { o: 86, h: 86, l: 82, c: 85 } }))!;
    expect(trade).toMatchObject({ exit_ts: closeMs(15), exit_reason: 'stop_loss' });
    expect(trade.exit_price).toBeCloseTo(82.56, 12);
    expect(settle(trade)!.pnl_pct).toBeCloseTo(-4, 12);
  });

  it('stops out at the open when the candle gaps below the stop', () => {
    const trade = first(candlesFromCloses([...falling, 81], { 15: { o: 80, h: 86, l: 79.5, c: 81 } }))!;
    expect(trade).toMatchObject({ exit_price: 80, exit_reason: 'stop_loss' });
    expect(settle(trade)).toMatchObject({ pnl_pct: expect.closeTo((-6 / 86) * 100, 12), outcome: 0 });
  });

  it(`closes at the market after ${MAX_HOLD_CANDLES} candles; a flat trade counts as a loss`, () => {
    const trade = first(candlesFromCloses([...falling, ...Array<number>(MAX_HOLD_CANDLES + 5).fill(86)]))!;
    expect(trade).toEqual({ ...entry, exit_ts: closeMs(14 + MAX_HOLD_CANDLES), exit_price: 86, exit_reason: 'max_hold' });
    expect(settle(trade)).toMatchObject({ pnl_pct: 0, outcome: 0, duration_s: MAX_HOLD_CANDLES * HOUR });
  });

  it('resumeAfter: nothing recorded → from scratch; an open trade → watch it; a closed one → decide after its exit', () => {
    expect(resumeAfter([])).toEqual({});
    const open = { ...entry, exit_ts: null, exit_price: null, exit_reason: null };
    const closed = { ...entry, entry_ts: closeMs(3), exit_ts: closeMs(9), exit_price: 90, exit_reason: 'rsi14_target' as const };
    expect(resumeAfter([toRow('rsi14_oversold', closed)])).toEqual({ decideAfterMs: closeMs(9) });
    expect(resumeAfter([toRow('rsi14_oversold', open), toRow('rsi14_oversold', closed)])).toEqual({ open });
  });
});
