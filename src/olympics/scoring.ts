import { aggregate, curve } from '../calib/reliability.js';
import type { Medal, OlympicsAnswerStatus } from '../store/schema.js';

/**
 * Olympics scoring, pure. A model that failed or timed out is scored as if it had answered
 * FAILED_P (the uninformed forecast: Brier 0.25, log loss ln 2), so a failure costs exactly as much
 * as knowing nothing and never drops the model out of the table; it wins no medal and adds nothing
 * to its reliability curve (ECE covers answered events only).
 */
export const FAILED_P = 0.5;
/** Log loss clamps p into [ε, 1 − ε], so one certain miss costs −ln ε ≈ 13.8 instead of infinity. */
export const LOG_LOSS_EPS = 1e-6;
/** Brier scores closer than this are tied (they differ only by floating-point noise). */
export const TIE_EPS = 1e-12;

export const SCORING_RULES =
  `Brier = (p − outcome)², log loss = −ln(p) when the outcome is 1 and −ln(1 − p) when 0, p clamped to [${LOG_LOSS_EPS}, 1 − ${LOG_LOSS_EPS}]. ` +
  `A model that failed or timed out scores as p = ${FAILED_P} (Brier 0.25, log loss ln 2) and is counted in failed / timed_out; it wins no medal and is left out of ECE. ` +
  'Medals per resolved event go to the answering models by Brier, lowest first, with standard competition ranking: models tied ' +
  `(Brier within ${TIE_EPS}) share the medal and the next rank is skipped (two golds, then bronze). ` +
  "The medal table sorts by gold, then silver, then bronze, then mean Brier (lower first), then model id. ECE is the calibration ledger's " +
  '(ten bins, Σ n_b/N · |success rate − mean p|) over answered events; void events (outcome unreadable) score nothing.';

export const brier = (p: number, outcome: 0 | 1): number => (p - outcome) ** 2;

export function logLoss(p: number, outcome: 0 | 1): number {
  const clamped = Math.min(1 - LOG_LOSS_EPS, Math.max(LOG_LOSS_EPS, p));
  return -Math.log(outcome === 1 ? clamped : 1 - clamped);
}

/** The probability an answer is scored with: its own, or FAILED_P when it gave none. */
export const scoredP = (answer: { status: OlympicsAnswerStatus; p: number | null }): number =>
  answer.status === 'answered' && answer.p !== null ? answer.p : FAILED_P;

const MEDALS: readonly Medal[] = ['gold', 'silver', 'bronze'];

/** Medal per model id among the answering models of one event (standard competition ranking by Brier). */
export function awardMedals(entries: readonly { model_id: string; brier: number }[]): Map<string, Medal | null> {
  return new Map(
    entries.map((entry) => {
      const rank = 1 + entries.filter((other) => other.brier < entry.brier - TIE_EPS).length;
      return [entry.model_id, MEDALS[rank - 1] ?? null];
    }),
  );
}

export interface ModelIdentity {
  model_id: string;
  vendor: string;
  model: string;
}

export interface ScoredRow extends ModelIdentity {
  status: OlympicsAnswerStatus;
  p: number | null;
  outcome: 0 | 1;
  medal: Medal | null;
}

export interface Standing extends ModelIdentity {
  events: number;
  answered: number;
  failed: number;
  timed_out: number;
  gold: number;
  silver: number;
  bronze: number;
  /** Means over every resolved event (failures at FAILED_P); null without any. */
  brier: number | null;
  log_loss: number | null;
  /** Over answered events only; null without any. */
  ece: number | null;
}

const mean = (values: number[]): number | null => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);

/** One model's standing from its scored answers (possibly none: a configured model that has not played yet). */
export function standing(model: ModelIdentity, rows: readonly ScoredRow[]): Standing {
  const answered = rows.filter((r) => r.status === 'answered' && r.p !== null);
  const count = (pick: (r: ScoredRow) => boolean) => rows.filter(pick).length;
  return {
    model_id: model.model_id,
    vendor: model.vendor,
    model: model.model,
    events: rows.length,
    answered: answered.length,
    failed: count((r) => r.status === 'failed'),
    timed_out: count((r) => r.status === 'timed_out'),
    gold: count((r) => r.medal === 'gold'),
    silver: count((r) => r.medal === 'silver'),
    bronze: count((r) => r.medal === 'bronze'),
    brier: mean(rows.map((r) => brier(scoredP(r), r.outcome))),
    log_loss: mean(rows.map((r) => logLoss(scoredP(r), r.outcome))),
    ece: curve(aggregate(answered.map((r) => [r.p!, r.outcome] as const))).ece,
  };
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Olympic order: gold, silver, bronze (more first), then mean Brier (lower first; none last), then model id. */
export function medalOrder(a: Standing, b: Standing): number {
  const medals = b.gold - a.gold || b.silver - a.silver || b.bronze - a.bronze;
  if (medals) return medals;
  if (a.brier !== b.brier) return a.brier === null ? 1 : b.brier === null ? -1 : a.brier - b.brier;
  return byId(a.model_id, b.model_id);
}

/** Standings of every model in `roster` or among the rows, in medal order; a configured model that has not played yet gets zeros. */
export function table(roster: readonly ModelIdentity[], rows: readonly ScoredRow[]): Standing[] {
  const models = new Map(roster.map((m) => [m.model_id, m]));
  for (const r of rows) if (!models.has(r.model_id)) models.set(r.model_id, r);
  return [...models.values()]
    .map((m) =>
      standing(
        m,
        rows.filter((r) => r.model_id === m.model_id),
      ),
    )
    .sort(medalOrder);
}
