import type { TradeRow } from '../store/repos/arena.js';
import { ATTESTATION_FORMULA, attestationId, attestationRef } from './attestations.js';

export const MODE_FILTERS = ['live', 'backfill', 'all'] as const;
export type ModeFilter = (typeof MODE_FILTERS)[number];

const CHAIN_LENGTH = 20;
const CURVE_POINTS = 50;

export interface Links {
  baseUrl: string;
  cardUrl: string;
}

/** At most `max` evenly spaced points of a series, keeping the first and (always) the last. */
export function downsample<T>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return [...points];
  if (max < 2) return max === 1 ? [points.at(-1)!] : [];
  const step = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => points[Math.round(i * step)]!);
}

/**
 * The spec's track record (everything but `_receipt`) of one strategy on one asset, from its
 * recorded trades in any order; open trades are left out. `links` supplies the public base URL and
 * the agent-card URL; claim ids come from the rows; `nowMs` becomes `ts`.
 *
 * P&L adds up in percent, no compounding and no fees: cumulative_pnl_pct is the running sum of
 * pnl_pct in entry order, total_pnl_pct its last value. peak_pnl_pct is the highest running sum,
 * counting the flat start (0); current_drawdown = peak − total, in percentage points, ≥ 0.
 * outcome is 1 iff pnl_pct > 0 (so a flat trade is a loss). chain: the 20 newest trades, newest
 * first, trade_n counting from 1 at the oldest. cumulative_pnl_curve: [exit_ts, cumulative] per
 * trade, downsampled evenly to at most 50 points keeping the last.
 *
 * `mode` selects the trades behind every figure (live, backfill or all); live_trade_count and
 * backfill_trade_count always count the closed trades of each mode, so a reader sees how much of a
 * record was replayed over history.
 */
export function trackRecord(
  strategy: string,
  asset: string,
  trades: readonly TradeRow[],
  links: Links,
  nowMs: number,
  mode: ModeFilter = 'all',
) {
  const allClosed = trades.filter((t) => t.exit_ts !== null && t.pnl_pct !== null);
  const closed = allClosed.filter((t) => mode === 'all' || t.mode === mode).sort((a, b) => a.entry_ts - b.entry_ts);
  let cumulative = 0;
  let peak = 0;
  const chain = closed.map((t, i) => {
    cumulative += t.pnl_pct!;
    peak = Math.max(peak, cumulative);
    const exitId = attestationId(strategy, asset, t.entry_ts, 'exit');
    return {
      trade_n: i + 1,
      mode: t.mode,
      claim_id: t.claim_id,
      entry_attestation: attestationRef(attestationId(strategy, asset, t.entry_ts, 'enter')),
      entry_ts: t.entry_ts,
      exit_ts: t.exit_ts!,
      entry_price: t.entry_price,
      exit_price: t.exit_price!,
      predicted_p: t.predicted_p,
      signals_lit: JSON.parse(t.signals_lit_json) as string[],
      duration_s: Math.round((t.exit_ts! - t.entry_ts) / 1000),
      pnl_pct: t.pnl_pct!,
      outcome: t.pnl_pct! > 0 ? 1 : 0,
      exit_reason: t.exit_reason!,
      outcome_attestation_url: `${links.baseUrl}/api/v1/arena/attestation/${exitId}`,
      calibration_card_url: links.cardUrl,
      cumulative_pnl_pct: cumulative,
    };
  });
  const wins = chain.filter((c) => c.outcome === 1).length;
  return {
    agent_id: `arena:${strategy}:${asset}`,
    strategy,
    asset,
    mode,
    live_trade_count: allClosed.filter((t) => t.mode === 'live').length,
    backfill_trade_count: allClosed.filter((t) => t.mode === 'backfill').length,
    total_pnl_pct: cumulative,
    trade_count: chain.length,
    win_count: wins,
    loss_count: chain.length - wins,
    win_rate: chain.length ? wins / chain.length : 0,
    peak_pnl_pct: peak,
    current_drawdown: peak - cumulative,
    chain: chain.slice(-CHAIN_LENGTH).reverse(),
    cumulative_pnl_curve: downsample(
      chain.map((c) => [c.exit_ts, c.cumulative_pnl_pct] as [number, number]),
      CURVE_POINTS,
    ),
    verifiable_via: `GET ${links.baseUrl}/api/v1/arena/attestation/<id> returns each entry's and exit's signed record; verify its _receipt with ${links.baseUrl}/.well-known/svc-receipt-pubkey.json or POST ${links.baseUrl}/api/v1/receipt/verify`,
    attestation_id_formula: ATTESTATION_FORMULA,
    calibration_card_url: links.cardUrl,
    ts: nowMs,
  };
}
