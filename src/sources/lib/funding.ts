import { roundSig } from '../../core/numbers.js';
import { noData } from '../../upstream/errors.js';
import type { Row } from '../define.js';

/** Funding-rate formulas shared by the perpetual-swap upstreams (Binance USDⓈ-M, Bybit linear, Hyperliquid). */
const HOUR_MS = 3_600_000;

export interface Settled {
  rate: number;
  at: number;
}

const WINDOW_MS = 8 * HOUR_MS;

/**
 * Time-weighted mean funding rate over the 8 hours before `asOfMs`, per 8 hours: each settled rate covers the
 * interval that ends at its settlement, the current (predicted) rate covers the open interval up to `asOfMs`.
 * Hours the history does not reach are left out of the mean, never counted as zero.
 */
export function average8h(current: number, settled: Settled[], intervalHours: number, asOfMs: number): number {
  const intervalMs = intervalHours * HOUR_MS;
  const from = asOfMs - WINDOW_MS;
  const newest = settled[0]!;
  const spans = [
    { rate: current, start: newest.at, end: asOfMs },
    ...settled.map((s) => ({ rate: s.rate, start: s.at - intervalMs, end: s.at })),
  ];
  let weighted = 0;
  let covered = 0;
  for (const span of spans) {
    const overlap = Math.max(0, Math.min(span.end, asOfMs) - Math.max(span.start, from));
    weighted += (span.rate / intervalMs) * overlap;
    covered += overlap;
  }
  return covered > 0 ? (weighted / covered) * WINDOW_MS : current * (8 / intervalHours);
}

/**
 * Our definitions: the funding interval is the gap between the last two settlements; `funding_rate_8h_avg` is
 * `average8h`; the annualized figure compounds nothing (rate × settlements per year × 100).
 */
export function fundingRow(
  symbol: string,
  pair: string,
  quote: 'USDT' | 'USDC',
  current: number,
  markPrice: number,
  nextAtMs: number,
  settled: Settled[],
  asOfMs: number,
): Row {
  const history = [...settled].sort((a, b) => b.at - a.at);
  if (!history.length) throw noData(`no funding history for ${pair}`);
  const intervalHours = history.length > 1 ? Math.round((history[0]!.at - history[1]!.at) / HOUR_MS) || 8 : 8;
  return {
    symbol,
    pair,
    quote,
    funding_rate: current,
    funding_rate_8h_avg: roundSig(average8h(current, history, intervalHours, asOfMs), 10),
    interval_hours: intervalHours,
    next_funding_at: Math.floor(nextAtMs / 1000),
    mark_price: markPrice,
    annualized_pct: roundSig(current * (24 / intervalHours) * 365 * 100, 10),
    as_of: Math.floor(asOfMs / 1000),
  };
}
