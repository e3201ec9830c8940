import type { Candle } from '../../src/core/candles.js';
import { pnlPct, type PaperTrade } from '../../src/arena/paper-trader.js';
import type { TradeRow } from '../../src/store/repos/arena.js';
import type { TradeMode } from '../../src/store/schema.js';

export const HOUR = 3600;
export const T0 = 1_700_000_000;

/** A wavy, noisy hourly price path from a seeded generator: enough swings for every strategy to trade. */
export function wavyCandles(n: number, seed = 1): Candle[] {
  let s = seed;
  const noise = () => (s = (s * 16807) % 2147483647) / 2147483647 - 0.5;
  let price = 100;
  return Array.from({ length: n }, (_, i) => {
    const o = price;
    const c = Math.max(1, o * (1 + 0.02 * Math.sin(i / 9) + 0.012 * noise()));
    price = c;
    return {
      t: T0 + i * HOUR,
      o,
      h: Math.max(o, c) * (1 + Math.abs(noise()) * 0.004),
      l: Math.min(o, c) * (1 - Math.abs(noise()) * 0.004),
      c,
      v: 100,
    };
  });
}

/** Hourly candles from closes, each opening at the previous close, with wicks only where given. */
export function candlesFromCloses(closes: readonly number[], wicks: Record<number, Partial<Candle>> = {}): Candle[] {
  return closes.map((c, i) => {
    const o = closes[i - 1] ?? c;
    return { t: T0 + i * HOUR, o, h: Math.max(o, c), l: Math.min(o, c), c, v: 1, ...wicks[i] };
  });
}

/** Close time in Unix ms of candle i of these series. */
export const closeMs = (i: number) => (T0 + (i + 1) * HOUR) * 1000;

/** A simulated BTC trade as the arena stores it (no claim). */
export const tradeRow = (strategy: string, t: PaperTrade, mode: TradeMode = 'live'): TradeRow => ({
  strategy,
  asset: 'BTC',
  entry_ts: t.entry_ts,
  entry_price: t.entry_price,
  predicted_p: t.predicted_p,
  signals_lit_json: JSON.stringify(t.signals_lit),
  claim_id: null,
  exit_ts: t.exit_ts,
  exit_price: t.exit_price,
  exit_reason: t.exit_reason,
  pnl_pct: pnlPct(t),
  mode,
});
