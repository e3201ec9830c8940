import { ApiError } from '../core/errors.js';
import { randomId } from '../core/ids.js';
import { unixSeconds, type Clock } from '../core/clock.js';
import type { SourceRunner } from '../sources/runner.js';
import type { CalibrationRepo } from '../store/repos/calibration.js';
import { binIndex, calibrate, curve, miscalibration } from './reliability.js';

export interface ClaimInput {
  agent_id: string;
  kind: string;
  predicted_p: number;
  payload: Record<string, unknown>;
  outcome_resolver: { type: 'manual' | 'price_above' | 'price_below'; config: Record<string, unknown> };
  ttl_hours: number;
}

/** A price resolver that cannot fetch its price keeps trying this long past the claim's TTL before the claim expires. */
const RESOLVER_GRACE_S = 3600;

export class CalibrationService {
  constructor(
    private readonly repo: CalibrationRepo,
    private readonly clock: Clock,
    private readonly runner: SourceRunner,
  ) {}

  async recordClaim(input: ClaimInput) {
    const nowS = unixSeconds(this.clock);
    const claimId = randomId('svc-claim:');
    const expectedResolutionAt = nowS + input.ttl_hours * 3600;
    await this.repo.insertClaim({
      claim_id: claimId,
      agent_id: input.agent_id,
      kind: input.kind,
      predicted_p: input.predicted_p,
      payload_json: JSON.stringify(input.payload),
      resolver_json: JSON.stringify(input.outcome_resolver),
      created_at: this.clock.now(),
      expected_resolution_at: expectedResolutionAt,
      status: 'unresolved',
      outcome: null,
      evidence_json: null,
      resolved_at: null,
    });
    const { calibrated_p, low_confidence } = await this.calibrateP(input.agent_id, input.kind, input.predicted_p);
    return { claim_id: claimId, calibrated_p, low_confidence, expected_resolution_at: expectedResolutionAt };
  }

  async recordOutcome(claimId: string, outcome: 0 | 1, evidence: Record<string, unknown>) {
    const result = await this.repo.resolve(claimId, outcome, JSON.stringify(evidence), this.clock.now(), binIndex);
    if (result.status === 'not_found') throw new ApiError('not_found', 'claim not found', { field: 'claim_id' });
    if (result.status === 'already_resolved') {
      const expired = result.claim.status === 'expired';
      throw new ApiError('already_resolved', expired ? 'claim expired without an outcome' : 'claim already resolved', { status: result.claim.status });
    }
    const { calibrated_p } = await this.calibrateP(result.claim.agent_id, result.claim.kind, result.claim.predicted_p);
    return { claim_id: claimId, status: 'resolved' as const, outcome, calibrated_p };
  }

  async calibrateP(agentId: string, kind: string, predictedP: number) {
    return calibrate(predictedP, await this.repo.bins(agentId, kind));
  }

  async curve(agentId: string, kind: string) {
    const [bins, counts] = await Promise.all([this.repo.bins(agentId, kind), this.repo.claimCounts(agentId)]);
    const c = curve(bins);
    return {
      agent_id: agentId,
      kind,
      bins: c.bins,
      ece: c.ece,
      brier: c.brier,
      total_claims: counts.find((k) => k.kind === kind)?.n ?? 0,
      resolved_claims: c.resolved,
    };
  }

  async agentCard(agentId: string) {
    const [bins, counts] = await Promise.all([this.repo.allBins(agentId), this.repo.claimCounts(agentId)]);
    const kinds = counts.map(({ kind, n }) => {
      const c = curve(bins.filter((b) => b.kind === kind));
      return { kind, claims: n, resolved: c.resolved, ece: c.ece, brier: c.brier, miscalibration: miscalibration(c) };
    });
    return { agent_id: agentId, issued_at: unixSeconds(this.clock), claims_total: counts.reduce((sum, k) => sum + k.n, 0), kinds };
  }

  /** The scheduler's pass: resolve due price claims from the crypto-price type, expire the rest. */
  async resolveDue(): Promise<{ resolved: number; expired: number }> {
    const nowS = unixSeconds(this.clock);
    let resolved = 0;
    let expired = 0;
    for (const claim of await this.repo.due(nowS)) {
      const resolver = JSON.parse(claim.resolver_json) as ClaimInput['outcome_resolver'];
      const outcome = resolver.type === 'manual' ? undefined : await this.priceOutcome(resolver);
      if (outcome) {
        await this.repo.resolve(claim.claim_id, outcome.outcome, JSON.stringify(outcome.evidence), this.clock.now(), binIndex);
        resolved++;
      } else if (resolver.type === 'manual' || nowS > claim.expected_resolution_at + RESOLVER_GRACE_S) {
        await this.repo.expire(claim.claim_id);
        expired++;
      }
    }
    return { resolved, expired };
  }

  private async priceOutcome(resolver: ClaimInput['outcome_resolver']) {
    const { coin, threshold_usd: threshold } = resolver.config as { coin: string; threshold_usd: number };
    const result = await this.runner.run('crypto-price', coin, { maxAgeS: 120 });
    const price = result.ok ? Number(result.rows[0]?.usd) : NaN;
    if (!result.ok || !Number.isFinite(price)) return undefined;
    const above = price > threshold;
    return {
      outcome: (resolver.type === 'price_above' ? above : price < threshold) ? (1 as const) : (0 as const),
      evidence: { resolver: resolver.type, coin, threshold_usd: threshold, price_usd: price, as_of: result.as_of, source: result.source, above },
    };
  }
}

