import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseTaQ, toRows } from '../../src/sources/ta-indicators.js';
import { klineToCandle } from '../../src/upstream/formats/binance-klines.js';

const fixture = JSON.parse(readFileSync(new URL('../../src/sources/fixtures/ta-indicators.json', import.meta.url), 'utf8'));
const klines: (number | string)[][] = fixture.exchanges[0].body;
const nowS = Date.UTC(2026, 10, 22, 12) / 1000;

/** Wilder's RSI written out independently of trading-signals. */
function wilderRsi(closes: number[], period = 14): number {
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period; i++) {
    const d = closes[i]! - closes[i - 1]!;
    gain += Math.max(d, 0) / period;
    loss += Math.max(-d, 0) / period;
  }
  for (let i = period + 1; i < closes.length; i++) {
    const d = closes[i]! - closes[i - 1]!;
    gain = (gain * (period - 1) + Math.max(d, 0)) / period;
    loss = (loss * (period - 1) + Math.max(-d, 0)) / period;
  }
  return 100 - 100 / (1 + gain / loss);
}

describe('ta-indicators', () => {
  it('computes RSI(14) and Bollinger(20, 2) over closed candles only, matching an independent calculation', () => {
    const [row] = toRows({ symbol: 'BTC', interval: '1h' }, klines.map(klineToCandle), nowS, 'USDT');
    const closes = klines.slice(0, -1).map((k) => Number(k[4])); // the last kline is still open
    expect(row!.rsi_14).toBeCloseTo(wilderRsi(closes), 4);
    const last20 = closes.slice(-20);
    const mean = last20.reduce((a, b) => a + b, 0) / 20;
    const sd = Math.sqrt(last20.reduce((a, b) => a + (b - mean) ** 2, 0) / 20);
    expect(row!.bb_middle).toBeCloseTo(mean, 4);
    expect(row!.bb_upper).toBeCloseTo(mean + 2 * sd, 4);
    expect(row!.candles_used).toBe(200);
  });

  it('parses <asset_symbol>:<candle_interval>', () => {
    expect(parseTaQ('eth:4h')).toEqual({ symbol: 'ETH', interval: '4h' });
    expect(() => parseTaQ('ETH:2h')).toThrow(/1m, 5m, 15m, 1h, 4h, 1d/);
  });
});
