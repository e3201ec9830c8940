import { SIGNALS, type ChartSignal, type ConsensusResult } from './schemas.js';

/**
 * The panel's consensus: a weighted plurality of signals. Each valid verdict adds its calibrated
 * confidence to its signal; the signal with the most weight wins. Ties between the top signals go to
 * hold (no trade on a split panel). With no valid verdict there is no signal (null).
 */
export const CONSENSUS_RULE =
  'Each valid verdict adds its calibrated_confidence to its signal; the signal with the largest total wins; a tie for the largest total is hold; ' +
  'no valid verdict gives signal null. share = winning total / sum of all totals.';

/** How many resolved claims the ledger needs before its bin rate outweighs the model's own stated confidence. */
export const PRIOR_STRENGTH = 5;

export const WEIGHT_RULE =
  `calibrated_confidence blends the ledger's success rate r over the n resolved chart-trade claims of agent chart:<model-id> in the bin of the verdict's claim ` +
  `probability with the model's stated confidence c as a prior worth ${PRIOR_STRENGTH} claims: (n·r + ${PRIOR_STRENGTH}·c)/(n + ${PRIOR_STRENGTH}); with no history it is c itself. ` +
  'A sell verdict is calibrated on the complement (its claim probability is 1 − c, and its weight is 1 minus the blended rate of that bin); a hold verdict weighs c.';

export interface WeightedVote {
  signal: ChartSignal;
  weight: number;
}

const EPSILON = 1e-9;

export function consensusOf(votes: readonly WeightedVote[]): ConsensusResult {
  const weights = { buy: 0, sell: 0, hold: 0 };
  const counts = { buy: 0, sell: 0, hold: 0 };
  for (const v of votes) {
    weights[v.signal] += v.weight;
    counts[v.signal]++;
  }
  const total = weights.buy + weights.sell + weights.hold;
  const ranked = [...SIGNALS].sort((a, b) => weights[b] - weights[a]);
  const top = weights[ranked[0]!];
  const tie = votes.length > 0 && top - weights[ranked[1]!] <= EPSILON;
  const signal = votes.length === 0 ? null : tie ? 'hold' : ranked[0]!;
  return {
    signal,
    weights,
    votes: counts,
    share: signal === null || total <= 0 ? null : weights[signal] / total,
    tie,
    models_counted: votes.length,
    rule: CONSENSUS_RULE,
  };
}

/** The blended success rate of one bin: the model's stated probability as a prior worth PRIOR_STRENGTH claims. */
export const blend = (statedP: number, binRate: number, samples: number): number =>
  (samples * binRate + PRIOR_STRENGTH * statedP) / (samples + PRIOR_STRENGTH);

/**
 * The probability a model's verdict puts on "the long paper trade closes with a profit": its
 * confidence for buy, the complement for sell, 0.5 for hold (no directional view).
 */
export function claimProbability(signal: ChartSignal, confidence: number): number {
  if (signal === 'buy') return confidence;
  if (signal === 'sell') return 1 - confidence;
  return 0.5;
}
