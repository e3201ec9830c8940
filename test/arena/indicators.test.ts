import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { indicatorSeries, macd, seededEma } from '../../src/core/indicators.js';
import { candlesFromCloses, wavyCandles } from './synthetic-candles.js';

/** StockCharts' worked examples (the data sets most TA libraries test against). */
const RSI_CLOSES = [
  44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.1, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28, 46.28, 46.0, 46.03, 46.41, 46.22, 45.64,
  46.21, 46.25, 45.71, 46.45, 45.78, 45.35, 44.03, 44.18, 44.22, 44.57, 43.42, 42.66, 43.13,
];
/** Wilder RSI(14) of RSI_CLOSES from the 15th close on, to 2 decimals. */
const RSI14 = [
  70.46, 66.25, 66.48, 69.35, 66.29, 57.92, 62.88, 63.21, 56.01, 62.34, 54.67, 50.39, 40.02, 41.49, 41.9, 45.5, 37.32, 33.09, 37.79,
];
const EMA_CLOSES = [
  22.27, 22.19, 22.08, 22.17, 22.18, 22.13, 22.23, 22.43, 22.24, 22.29, 22.15, 22.39, 22.38, 22.61, 23.36, 24.05, 23.75, 23.83, 23.95,
  23.63, 23.82, 23.87, 23.65, 23.19, 23.1, 23.33, 22.68, 23.1, 22.4, 22.17,
];
/** EMA(10) of EMA_CLOSES seeded with the SMA of the first ten, from the 10th close on, as published (2 decimals). */
const EMA10 = [
  22.22, 22.21, 22.24, 22.27, 22.33, 22.52, 22.8, 22.97, 23.13, 23.28, 23.34, 23.43, 23.51, 23.54, 23.47, 23.4, 23.39, 23.26, 23.23, 23.08,
  22.92,
];

const defined = <T>(xs: (T | undefined)[]) => xs.filter((x): x is T => x !== undefined);

describe('indicators against reference values', () => {
  it('RSI(14) matches the StockCharts series', () => {
    const rsi = defined(indicatorSeries(candlesFromCloses(RSI_CLOSES)).map((s) => s.rsi14));
    expect(rsi).toHaveLength(RSI14.length);
    rsi.forEach((value, i) => expect(value).toBeCloseTo(RSI14[i]!, 2));
    expect(rsi[0]).toBeCloseTo(70.4641, 4);
  });

  it('RSI(2) matches a hand computation', () => {
    // changes +1, −0.5, +1; seed averages gain 0.5, loss 0.25 → RS 2 → 66.67;
    // then gain (0.5 + 1)/2 = 0.75, loss 0.25/2 = 0.125 → RS 6 → 85.71
    const rsi = indicatorSeries(candlesFromCloses([10, 11, 10.5, 11.5])).map((s) => s.rsi2);
    expect(rsi.slice(0, 2)).toEqual([undefined, undefined]);
    expect(rsi[2]).toBeCloseTo(200 / 3, 10);
    expect(rsi[3]).toBeCloseTo(600 / 7, 10);
  });

  it('EMA is seeded with the SMA and matches the published EMA(10) series', () => {
    const ema = EMA_CLOSES.map(seededEma(10));
    expect(ema.slice(0, 9).every((x) => x === undefined)).toBe(true);
    // exact values of the recursion: SMA, then 2/11 weighting
    expect(ema[9]).toBeCloseTo(22.221, 12);
    expect(ema[10]).toBeCloseTo(22.208090909090906, 12);
    expect(ema[11]).toBeCloseTo(22.241165289256195, 12);
    defined(ema).forEach((value, i) => expect(Math.abs(value - EMA10[i]!)).toBeLessThanOrEqual(0.011));
  });

  it('MACD(12, 26, 9) of a unit ramp is exactly the EMA lag difference (26 − 12)/2 = 7, with a flat histogram', () => {
    // an SMA-seeded EMA(n) of a unit ramp trails it by (n − 1)/2 from its first value on
    const next = macd();
    const out = Array.from({ length: 60 }, (_, i) => next(i));
    expect(out.slice(0, 25).every((x) => x === undefined)).toBe(true);
    expect(out[25]).toEqual({ macd: expect.closeTo(7, 10), signal: undefined, histogram: undefined });
    for (const m of out.slice(33)) {
      expect(m!.macd).toBeCloseTo(7, 10);
      expect(m!.signal).toBeCloseTo(7, 10);
      expect(m!.histogram).toBeCloseTo(0, 10);
    }
  });

  it('MACD equals EMA12 − EMA26 with signal EMA9 of the line, written out independently', () => {
    const closes = wavyCandles(200, 4).map((c) => c.c);
    const plainEma = (xs: number[], n: number) => {
      const out: (number | undefined)[] = xs.map(() => undefined);
      let value = xs.slice(0, n).reduce((a, b) => a + b, 0) / n;
      out[n - 1] = value;
      for (let i = n; i < xs.length; i++) out[i] = value = value + (2 / (n + 1)) * (xs[i]! - value);
      return out;
    };
    const [e12, e26] = [plainEma(closes, 12), plainEma(closes, 26)];
    const line = closes.map((_, i) => (i >= 25 ? e12[i]! - e26[i]! : undefined));
    const signal = plainEma(defined(line), 9);
    const series = indicatorSeries(closes.map((c, i) => ({ t: i, o: c, h: c, l: c, c, v: 1 })));
    series.forEach((s, i) => {
      if (i < 25) return expect(s.macd).toBeUndefined();
      expect(s.macd).toBeCloseTo(line[i]!, 9);
      if (i < 33) return expect(s.macdSignal).toBeUndefined();
      expect(s.macdSignal).toBeCloseTo(signal[i - 25]!, 9);
      expect(s.macdHistogram).toBeCloseTo(line[i]! - signal[i - 25]!, 9);
    });
    expect(series[49]!.ema50).toBeCloseTo(closes.slice(0, 50).reduce((a, b) => a + b, 0) / 50, 9);
    expect(series[48]!.ema50).toBeUndefined();
  });

  it('Bollinger(20, 2) of 1..20: middle 10.5, population σ = √33.25', () => {
    const bb = indicatorSeries(candlesFromCloses(Array.from({ length: 20 }, (_, i) => i + 1)));
    expect(bb[18]!.bbLower).toBeUndefined();
    expect(bb[19]!.bbMiddle).toBe(10.5);
    expect(bb[19]!.bbLower).toBeCloseTo(10.5 - 2 * Math.sqrt(33.25), 10);
  });
});

describe('no look-ahead in indicators', () => {
  it('the series of a prefix is the prefix of the series', () => {
    const candles = wavyCandles(150, 2);
    const full = indicatorSeries(candles);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 150 }), (cut) => {
        expect(indicatorSeries(candles.slice(0, cut))).toEqual(full.slice(0, cut));
      }),
      { numRuns: 30 },
    );
  });
});
