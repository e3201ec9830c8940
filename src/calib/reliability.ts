/**
 * Reliability-curve math, pure (no I/O). Ten bins with edges k/10 (computed as k/10, not k·0.1, so
 * 0.7 is exactly an edge), right-closed like scikit-learn's calibration_curve: p = 0 is in the first
 * bin, p = 0.7 in [0.6, 0.7] (index 6), p = 1 in the last.
 *
 * Storage keeps one BinAggregate per (agent, kind, bin) and folds each outcome in with the same sums
 * `addOutcome` computes, so every read (curve, calibrate, card) costs O(10) whatever the claim count.
 */
export const BIN_COUNT = 10;
export const EDGES: readonly number[] = Object.freeze(Array.from({ length: BIN_COUNT + 1 }, (_, k) => k / 10));
/** A bin with fewer resolved claims than this gives a `low_confidence` calibrated_p. */
export const MIN_SAMPLES = 30;

/** The 11 bin edges 0, 0.1, …, 1 (a fresh array). */
export const binEdges = (): number[] => [...EDGES];

/** The bin of a probability: the first k with p ≤ (k+1)/10; p = 0 joins bin 0. Throws RangeError outside [0, 1]. */
export function binIndex(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must be in [0, 1], got ${p}`);
  const index = EDGES.findIndex((edge, k) => k > 0 && p <= edge) - 1;
  return Math.max(0, index);
}

/** What is kept per (agent, kind, bin): enough to rebuild every curve figure. */
export interface BinAggregate {
  bin_index: number;
  count: number;
  success_count: number;
  /** Σ predicted_p, for avg_p. */
  sum_p: number;
  /** Σ (predicted_p − outcome)², for Brier. */
  sum_sq_err: number;
}

export const emptyAggregate = (bin_index: number): BinAggregate => ({ bin_index, count: 0, success_count: 0, sum_p: 0, sum_sq_err: 0 });

/**
 * `agg` with one more resolved claim folded in (a new object). `addOutcome(emptyAggregate(binIndex(p)), p, o)`
 * is exactly the increment a store adds in its upsert. Throws RangeError when p is not in agg's bin.
 */
export function addOutcome(agg: BinAggregate, p: number, outcome: 0 | 1): BinAggregate {
  if (binIndex(p) !== agg.bin_index) throw new RangeError(`p = ${p} is not in bin ${agg.bin_index}`);
  if (outcome !== 0 && outcome !== 1) throw new RangeError(`outcome must be 0 or 1, got ${String(outcome)}`);
  return {
    bin_index: agg.bin_index,
    count: agg.count + 1,
    success_count: agg.success_count + outcome,
    sum_p: agg.sum_p + p,
    sum_sq_err: agg.sum_sq_err + (p - outcome) ** 2,
  };
}

/** The non-empty aggregates of a list of resolved (predicted_p, outcome) pairs, by bin index. */
export function aggregate(resolved: Iterable<readonly [p: number, outcome: 0 | 1]>): BinAggregate[] {
  const bins = new Map<number, BinAggregate>();
  for (const [p, o] of resolved) {
    const k = binIndex(p);
    bins.set(k, addOutcome(bins.get(k) ?? emptyAggregate(k), p, o));
  }
  return [...bins.values()].sort((a, b) => a.bin_index - b.bin_index);
}

export interface ReliabilityBin {
  low: number;
  high: number;
  count: number;
  success_count: number;
  /**
   * Observed frequency; null for an empty bin. A number there would be an observation that never
   * happened (0 reads as "always failed"); count = 0 and smoothed_rate say what is known.
   */
  success_rate: number | null;
  /** Posterior mean under a Beta(1, 1) prior: (s + 1) / (n + 2); 0.5 for an empty bin. */
  smoothed_rate: number;
  /** Mean predicted probability; null for an empty bin. */
  avg_p: number | null;
}

export interface Curve {
  /** Always BIN_COUNT bins, empty ones included. */
  bins: ReliabilityBin[];
  /** Σ n_b/N · |success_rate_b − avg_p_b| over non-empty bins; null without resolved claims. */
  ece: number | null;
  /** Mean (p − o)²; null without resolved claims. */
  brier: number | null;
  /** Σ n_b/N · (avg_p_b − success_rate_b), i.e. mean p − mean outcome: > 0 overconfident, < 0 underconfident. */
  signed_gap: number | null;
  /** N, the resolved claims behind the curve. */
  resolved: number;
}

/** The curve from stored aggregates (any order, missing bins allowed); O(10). */
export function curve(aggregates: readonly BinAggregate[]): Curve {
  const byIndex = new Map(aggregates.map((a) => [a.bin_index, a]));
  const bins = EDGES.slice(0, BIN_COUNT).map((low, k) => reliabilityBin(low, EDGES[k + 1]!, byIndex.get(k) ?? emptyAggregate(k)));
  const total = bins.reduce((sum, b) => sum + b.count, 0);
  if (total === 0) return { bins, ece: null, brier: null, signed_gap: null, resolved: 0 };
  const weighted = (f: (b: ReliabilityBin) => number) =>
    bins.filter((b) => b.count > 0).reduce((sum, b) => sum + (b.count / total) * f(b), 0);
  return {
    bins,
    ece: weighted((b) => Math.abs(b.success_rate! - b.avg_p!)),
    brier: aggregates.reduce((sum, a) => sum + a.sum_sq_err, 0) / total,
    signed_gap: weighted((b) => b.avg_p! - b.success_rate!),
    resolved: total,
  };
}

function reliabilityBin(low: number, high: number, a: BinAggregate): ReliabilityBin {
  const n = a.count;
  const s = a.success_count;
  return {
    low,
    high,
    count: n,
    success_count: s,
    success_rate: n ? s / n : null,
    smoothed_rate: (s + 1) / (n + 2),
    avg_p: n ? a.sum_p / n : null,
  };
}

/** The bin's historical success rate; with no resolved claims in that bin, predicted_p itself. */
export function calibrate(predictedP: number, aggregates: readonly BinAggregate[]) {
  const index = binIndex(predictedP);
  const bin = aggregates.find((a) => a.bin_index === index);
  const sampleCount = bin?.count ?? 0;
  return {
    calibrated_p: sampleCount ? bin!.success_count / sampleCount : predictedP,
    low_confidence: sampleCount < MIN_SAMPLES,
    sample_count: sampleCount,
    bin_index: index,
  };
}

/** Needs this many resolved claims before a kind gets a verdict other than insufficient_data. */
export const MIN_FOR_VERDICT = 30;
/** ECE beyond what chance explains, up to this, is "well calibrated". */
export const WELL_CALIBRATED_ECE = 0.05;

/**
 * The ECE a perfectly calibrated agent with the same bin counts and avg_p would show by chance:
 * Σ n_b/N · √(2/π) · √(avg_p_b(1 − avg_p_b)/n_b), the expected |binomial rate − p| per bin (normal
 * approximation). It is ≈ 0.17 at N = 30 and 0.014 at N = 5000 for uniform predictions, so a raw
 * ECE threshold alone would call almost every honest agent with a few hundred claims miscalibrated.
 */
export function chanceEce(c: Curve): number {
  if (c.resolved === 0) return 0;
  return c.bins
    .filter((b) => b.count > 0)
    .reduce((sum, b) => sum + (b.count / c.resolved) * Math.sqrt(((2 / Math.PI) * (b.avg_p! * (1 - b.avg_p!))) / b.count), 0);
}

export type Miscalibration = 'insufficient_data' | 'well_calibrated' | 'overconfident' | 'underconfident' | 'mixed';

/**
 * Standard error of signed_gap for a perfectly calibrated agent: √(Σ n_b·avg_p_b(1 − avg_p_b)) / N
 * (each outcome a Bernoulli of its prediction; using the bin mean slightly overstates the variance).
 */
export function signedGapStandardError(c: Curve): number {
  if (c.resolved === 0) return 0;
  const variance = c.bins.filter((b) => b.count > 0).reduce((sum, b) => sum + b.count * b.avg_p! * (1 - b.avg_p!), 0);
  return Math.sqrt(variance) / c.resolved;
}

/**
 * The agent card's label for one kind:
 * - insufficient_data: fewer than MIN_FOR_VERDICT resolved claims;
 * - well_calibrated: ECE − chanceEce ≤ 0.05;
 * - overconfident / underconfident: otherwise, when predictions run above / below the observed
 *   frequency on average (signed_gap) by more than two standard errors;
 * - mixed: miscalibrated without a net direction (e.g. too extreme at both ends), where the sign of
 *   signed_gap would be a coin flip.
 */
export function miscalibration(c: Curve): Miscalibration {
  if (c.resolved < MIN_FOR_VERDICT || c.ece === null || c.signed_gap === null) return 'insufficient_data';
  if (c.ece - chanceEce(c) <= WELL_CALIBRATED_ECE) return 'well_calibrated';
  if (Math.abs(c.signed_gap) <= 2 * signedGapStandardError(c)) return 'mixed';
  return c.signed_gap > 0 ? 'overconfident' : 'underconfident';
}
