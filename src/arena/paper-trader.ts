import type { Candle } from '../core/candles.js';
import type { TradeRow } from '../store/repos/arena.js';
import { indicatorSeries } from '../core/indicators.js';
import { DIVERGENCE_LOOKBACK, MAX_HOLD_CANDLES, litSignals, predictedP, rulesOf, type AnyStrategy, type ExitReason } from './strategies.js';

export {
  ASSETS,
  CHART_CONSENSUS,
  MAX_HOLD_CANDLES,
  STRATEGIES,
  predictedP,
  type AnyStrategy,
  type Asset,
  type ChartStrategy,
  type ExitReason,
  type Strategy,
} from './strategies.js';

export interface PaperTrade {
  /** Unix ms of the close of the candle that triggered the trade (the fill price is that close). */
  entry_ts: number;
  entry_price: number;
  predicted_p: number;
  signals_lit: string[];
  exit_ts: number | null;
  exit_price: number | null;
  exit_reason: ExitReason | null;
}

/** A trade with its exit and the figures derived from it. */
export interface ClosedTrade extends PaperTrade {
  exit_ts: number;
  exit_price: number;
  exit_reason: ExitReason;
  duration_s: number;
  /** (exit − entry) / entry in percent, long only, no fees. */
  pnl_pct: number;
  /** 1 iff pnl_pct > 0. */
  outcome: 0 | 1;
}

/** Where a run picks up from what earlier runs recorded (see resumeAfter). */
export interface Resume {
  /** A position opened by an earlier run: it is watched for its exit on candles after its entry, never re-entered. */
  open?: PaperTrade;
  /** Only candles closing after this Unix ms may open a trade; earlier ones just warm the indicators up. */
  decideAfterMs?: number;
}

/**
 * Paper-trades one strategy over candles sorted by `t` (open time, Unix s) of one interval, long only,
 * one position at a time:
 * - a decision at candle i uses candles 0..i only and fills at candle i's close (entry_ts is that
 *   candle's close time in ms); exits are looked for from the next candle on;
 * - the stop is checked first, against each candle's low, and fills at the stop price or at the open
 *   when the candle opens below it; then a take-profit (if the rules have one) against the high, filled
 *   at its price or at the open on a gap up; then the strategy's target (fills at the close); then max_hold;
 * - no re-entry on the candle of an exit; a trade still open at the end (the resumed one included) is
 *   returned with null exit fields; max_hold counts candle intervals since the entry.
 * Without `resume` the run starts flat at the first candle, so runs over different windows disagree
 * about the past; a job that runs repeatedly passes `resumeAfter(recorded)` to continue one history.
 */
export function simulate(strategy: AnyStrategy, candles: readonly Candle[], intervalS: number, resume: Resume = {}): PaperTrade[] {
  const rules = rulesOf(strategy);
  const series = indicatorSeries(candles);
  const trades: PaperTrade[] = [];
  let open = resume.open;
  series.forEach((now, i) => {
    const candle = candles[i]!;
    const closeTs = (candle.t + intervalS) * 1000;
    const past = series.slice(Math.max(0, i - DIVERGENCE_LOOKBACK - 1), i);
    if (open) {
      if (closeTs <= open.entry_ts) return;
      const stop = open.entry_price * (1 - rules.stopLossPct / 100);
      const take = rules.takeProfitPct === undefined ? Infinity : open.entry_price * (1 + rules.takeProfitPct / 100);
      const held = Math.round((closeTs - open.entry_ts) / (intervalS * 1000));
      const reason: ExitReason | undefined =
        candle.l <= stop
          ? 'stop_loss'
          : candle.h >= take
            ? 'take_profit'
            : (rules.target(now, past) ?? (held >= MAX_HOLD_CANDLES ? 'max_hold' : undefined));
      if (reason) {
        const fill = reason === 'stop_loss' ? Math.min(stop, candle.o) : reason === 'take_profit' ? Math.max(take, candle.o) : now.close;
        trades.push({ ...open, exit_ts: closeTs, exit_price: fill, exit_reason: reason });
        open = undefined;
      }
      return;
    }
    if (closeTs <= (resume.decideAfterMs ?? -Infinity) || !rules.enter(now, past)) return;
    const signals = litSignals(now, past);
    open = {
      entry_ts: closeTs,
      entry_price: now.close,
      predicted_p: predictedP(signals.length),
      signals_lit: signals,
      exit_ts: null,
      exit_price: null,
      exit_reason: null,
    };
  });
  if (open) trades.push(open);
  return trades;
}

/** How to continue after recorded trades: watch the newest if it is open, else decide only after its exit. */
export function resumeAfter(recorded: readonly TradeRow[]): Resume {
  const last = recorded.reduce<TradeRow | undefined>((newest, t) => (!newest || t.entry_ts > newest.entry_ts ? t : newest), undefined);
  if (!last) return {};
  if (last.exit_ts === null) {
    const signals = JSON.parse(last.signals_lit_json) as string[];
    return {
      open: {
        entry_ts: last.entry_ts,
        entry_price: last.entry_price,
        predicted_p: last.predicted_p,
        signals_lit: signals,
        exit_ts: null,
        exit_price: null,
        exit_reason: null,
      },
    };
  }
  return { decideAfterMs: last.exit_ts };
}

export const pnlPct = (t: PaperTrade): number | null =>
  t.exit_price === null ? null : ((t.exit_price - t.entry_price) / t.entry_price) * 100;

/** The closed form of a trade (duration, pnl, outcome); undefined while it is open. */
export function settle(t: PaperTrade): ClosedTrade | undefined {
  if (t.exit_ts === null || t.exit_price === null || t.exit_reason === null) return undefined;
  const pnl = pnlPct(t)!;
  return {
    ...t,
    exit_ts: t.exit_ts,
    exit_price: t.exit_price,
    exit_reason: t.exit_reason,
    duration_s: Math.round((t.exit_ts - t.entry_ts) / 1000),
    pnl_pct: pnl,
    outcome: pnl > 0 ? 1 : 0,
  };
}
