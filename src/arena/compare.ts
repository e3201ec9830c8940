import { createHash } from 'node:crypto';
import type { TradeRow } from '../store/repos/arena.js';
import { attestationId, attestationRef } from './attestations.js';
import type { ModeFilter } from './track-record.js';

/**
 * The 15 combinations a comparison ranks: these five strategies on these three assets, named here
 * rather than read from STRATEGIES so a strategy added to the arena later (e.g. chart-consensus)
 * never changes what an existing comparison means.
 */
export const COMPARED_STRATEGIES = [
  'rsi2_mean_reversion',
  'rsi14_oversold',
  'macd_bullish_div',
  'bollinger_bounce',
  'trend_following',
] as const;
export const COMPARED_ASSETS = ['BTC', 'ETH', 'SOL'] as const;

export const COMPARE_WINDOWS = ['30d', '90d', 'all'] as const;
export type CompareWindow = (typeof COMPARE_WINDOWS)[number];
const WINDOW_MS: Record<CompareWindow, number | null> = { '30d': 30 * 86_400_000, '90d': 90 * 86_400_000, all: null };

export const METRICS = ['pnl', 'win_rate', 'sharpe_like', 'calibration'] as const;
export type Metric = (typeof METRICS)[number];

export const COMPARE_ID_FORMULA =
  'id = first 24 hex characters of SHA-256("compare|<window>|<mode>|<as_of_ts>"), as_of_ts in Unix ms (UTF-8, decimal): the trade attestations\' formula with the comparison\'s key';

export const compareId = (window: CompareWindow, mode: ModeFilter, asOfTs: number): string =>
  createHash('sha256').update(`compare|${window}|${mode}|${asOfTs}`).digest('hex').slice(0, 24);

export const METRIC_RULES =
  'A trade counts when it is closed, its mode matches `mode` (live, backfill or all) and its exit_ts is in (as_of_ts − window, as_of_ts] (every exit up to as_of_ts for `all`). ' +
  'Per combination: total_pnl_pct = Σ pnl_pct (percent, no compounding, no fees); win_rate = wins / trades, a win being pnl_pct > 0 (null without trades); ' +
  'sharpe_like = mean(pnl_pct) / sample standard deviation(pnl_pct) per trade, not annualized (null with fewer than 2 trades or a zero deviation); ' +
  "brier = mean (predicted_p − outcome)² over the trades, the calibration of the strategy's entry probabilities (null without trades; lower is better). " +
  "`ranking` orders the 15 combinations by total_pnl_pct (highest first); `ranks` gives each combination's place (1 = best) under each metric: pnl and win_rate and sharpe_like highest first, " +
  "calibration lowest brier first; nulls come last and ties go to the agent_id that sorts first. latest_attestation is the exit attestation of the combination's newest counted trade (null without trades).";

interface Combination {
  agent_id: string;
  strategy: string;
  asset: string;
  trade_count: number;
  total_pnl_pct: number;
  win_rate: number | null;
  sharpe_like: number | null;
  brier: number | null;
  latest_attestation: string | null;
}

export interface RankedCombination extends Combination {
  rank: number;
  ranks: Record<Metric, number>;
}

/** The first exit time a window counts (exclusive), or -Infinity for `all`. */
export function windowStart(window: CompareWindow, asOfTs: number): number {
  const span = WINDOW_MS[window];
  return span === null ? -Infinity : asOfTs - span;
}

const counts = (t: TradeRow, mode: ModeFilter, fromTs: number, asOfTs: number): boolean =>
  t.exit_ts !== null && t.pnl_pct !== null && (mode === 'all' || t.mode === mode) && t.exit_ts > fromTs && t.exit_ts <= asOfTs;

function sampleSd(values: readonly number[], mean: number): number {
  return Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (values.length - 1));
}

/** The figures of one combination over the trades that count. */
export function combinationFigures(strategy: string, asset: string, trades: readonly TradeRow[]): Combination {
  const pnls = trades.map((t) => t.pnl_pct!);
  const n = pnls.length;
  const total = pnls.reduce((sum, p) => sum + p, 0);
  const mean = n ? total / n : 0;
  const sd = n >= 2 ? sampleSd(pnls, mean) : 0;
  const latest = trades.reduce<TradeRow | undefined>((newest, t) => (!newest || t.exit_ts! > newest.exit_ts! ? t : newest), undefined);
  return {
    agent_id: `arena:${strategy}:${asset}`,
    strategy,
    asset,
    trade_count: n,
    total_pnl_pct: total,
    win_rate: n ? pnls.filter((p) => p > 0).length / n : null,
    sharpe_like: sd > 0 ? mean / sd : null,
    brier: n ? trades.reduce((sum, t) => sum + (t.predicted_p - (t.pnl_pct! > 0 ? 1 : 0)) ** 2, 0) / n : null,
    latest_attestation: latest ? attestationRef(attestationId(strategy, asset, latest.entry_ts, 'exit')) : null,
  };
}

const METRIC_VALUE: Record<Metric, (c: Combination) => number | null> = {
  pnl: (c) => c.total_pnl_pct,
  win_rate: (c) => c.win_rate,
  sharpe_like: (c) => c.sharpe_like,
  // Lower Brier is better: negate so every metric sorts highest first.
  calibration: (c) => (c.brier === null ? null : -c.brier),
};

/** Combinations ordered best first under one metric: nulls last, ties by agent_id. */
function orderBy(metric: Metric, combos: readonly Combination[]): Combination[] {
  const value = METRIC_VALUE[metric];
  return [...combos].sort((a, b) => {
    const [va, vb] = [value(a), value(b)];
    if (va !== vb) {
      if (va === null) return 1;
      if (vb === null) return -1;
      return vb - va;
    }
    return a.agent_id < b.agent_id ? -1 : a.agent_id > b.agent_id ? 1 : 0;
  });
}

/** The 15 combinations over the trades a window and mode select, ranked by P/L with their place under every metric. */
export function rankCombinations(
  trades: readonly TradeRow[],
  window: CompareWindow,
  mode: ModeFilter,
  asOfTs: number,
): RankedCombination[] {
  const fromTs = windowStart(window, asOfTs);
  const combos = COMPARED_STRATEGIES.flatMap((strategy) =>
    COMPARED_ASSETS.map((asset) =>
      combinationFigures(
        strategy,
        asset,
        trades.filter((t) => t.strategy === strategy && t.asset === asset && counts(t, mode, fromTs, asOfTs)),
      ),
    ),
  );
  const places = Object.fromEntries(METRICS.map((m) => [m, new Map(orderBy(m, combos).map((c, i) => [c.agent_id, i + 1]))])) as Record<
    Metric,
    Map<string, number>
  >;
  return orderBy('pnl', combos).map((c, i) => ({
    rank: i + 1,
    ...c,
    ranks: Object.fromEntries(METRICS.map((m) => [m, places[m].get(c.agent_id)!])) as Record<Metric, number>,
  }));
}
