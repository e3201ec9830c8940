/**
 * Our contract/token risk score: each finding adds its weight, capped at 100. The weights are a
 * heuristic (no upstream publishes a score): what can take a holder's funds weighs most, what
 * merely allows it later (owner powers, upgradability) less.
 */
const WEIGHTS: Record<string, number> = {
  honeypot: 100,
  airdrop_scam: 50,
  cannot_sell_all: 40,
  cannot_buy: 30,
  owner_change_balance: 30,
  creator_made_honeypots: 30,
  unverified_source: 30,
  hidden_owner: 25,
  can_take_back_ownership: 25,
  selfdestruct: 25,
  modifiable_tax: 20,
  per_address_tax: 20,
  high_tax: 20,
  mintable: 15,
  pausable: 15,
  blacklist: 15,
  upgradeable: 15,
  proxy: 10,
  external_call: 10,
  trading_cooldown: 10,
  old_compiler: 10,
};

export type RiskLevel = 'low' | 'medium' | 'high';

export interface RiskScore {
  /** The weights of the risks found: a floor, since unknown checks are not counted as passed. */
  risk_score: number;
  /** The score if every unknown check turned out to be a risk. */
  risk_score_max: number;
  /** The level of risk_score, or `unknown` when the unknown checks could still move it to another level. */
  risk_level: RiskLevel | 'unknown';
}

const levelOf = (score: number): RiskLevel => (score >= 60 ? 'high' : score >= 25 ? 'medium' : 'low');
const weigh = (names: Iterable<string>) =>
  Math.min(
    100,
    [...new Set(names)].reduce((sum, r) => sum + (WEIGHTS[r] ?? 0), 0),
  );

/** An unknown check never lowers the score: it can only widen the range up to `risk_score_max`. */
export function riskScore(risks: readonly string[], unknownChecks: readonly string[] = []): RiskScore {
  const score = weigh(risks);
  const max = weigh([...risks, ...unknownChecks]);
  return { risk_score: score, risk_score_max: max, risk_level: levelOf(score) === levelOf(max) ? levelOf(score) : 'unknown' };
}
