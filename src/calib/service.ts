import { ApiError } from '../core/errors.js';
import { randomId } from '../core/ids.js';
import { unixSeconds, type Clock } from '../core/clock.js';
import type { SourceRunner } from '../sources/runner.js';
import type { CalibrationRepo, ClaimRow } from '../store/repos/calibration.js';
import type { CredentialRow } from '../store/repos/agents.js';
import type { OutcomeSource } from '../store/schema.js';
import { binIndex, calibrate, curve, miscalibration, type BinAggregate } from './reliability.js';
import { resolverOf, resolverStatus } from './resolvers/registry.js';

export interface ClaimInput {
  agent_id: string;
  kind: string;
  predicted_p: number;
  payload: Record<string, unknown>;
  outcome_resolver: { type: string; config: Record<string, unknown> };
  ttl_hours: number;
}

export interface WriteOptions {
  /** The agent this write creates (its first write): inserted in the write's transaction. */
  newAgent?: CredentialRow;
  /** Runs on the finished response before the write commits; when it throws, nothing is stored. */
  seal?: (response: Record<string, unknown>) => void;
}

/** A resolver that cannot read its data keeps trying this long past the claim's TTL before the claim expires. */
const RESOLVER_GRACE_S = 3600;

export class CalibrationService {
  constructor(
    private readonly repo: CalibrationRepo,
    private readonly clock: Clock,
    private readonly runner: SourceRunner,
  ) {}

  /** Records a claim (and, on an agent's first write, the agent) and builds the answer in one transaction. */
  async recordClaim(input: ClaimInput, { newAgent, seal }: WriteOptions = {}) {
    const nowS = unixSeconds(this.clock);
    const claimId = randomId('svc-claim:');
    const expectedResolutionAt = nowS + input.ttl_hours * 3600;
    return this.repo.transaction(async (repo, agents) => {
      if (newAgent && !(await agents.create(newAgent))) {
        throw new ApiError('unauthorized', `agent ${input.agent_id} was just created by another request: send its agent_key`, {
          agent_id: input.agent_id,
        });
      }
      await repo.insertClaim({
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
        outcome_source: null,
      });
      const { calibrated_p, low_confidence } = calibrate(input.predicted_p, await repo.bins(input.agent_id, input.kind));
      const response = {
        claim_id: claimId,
        calibrated_p,
        low_confidence,
        expected_resolution_at: expectedResolutionAt,
        outcome_resolver: resolverStatus(input.outcome_resolver.type, 'pending'),
      };
      seal?.(response);
      return response;
    });
  }

  /** The claim an outcome is about; 404 when unknown. */
  async claim(claimId: string): Promise<ClaimRow> {
    const claim = await this.repo.getClaim(claimId);
    if (!claim) throw new ApiError('not_found', 'claim not found', { field: 'claim_id' });
    return claim;
  }

  /**
   * Resolves an unresolved claim once; 409 only when it is already resolved (or expired). A `self_reported`
   * outcome (record_outcome over HTTP) is taken for any claim, also one svc would resolve: it is stored as
   * self-reported, so it never counts as verified, and the resolver no longer runs since the claim is no longer due.
   */
  async recordOutcome(
    claimId: string,
    outcome: 0 | 1,
    evidence: Record<string, unknown>,
    source: OutcomeSource,
    { seal }: WriteOptions = {},
  ) {
    return this.repo.transaction(async (repo) => {
      const result = await repo.resolve(claimId, outcome, source, JSON.stringify(evidence), this.clock.now(), binIndex);
      if (result.status === 'not_found') throw new ApiError('not_found', 'claim not found', { field: 'claim_id' });
      if (result.status === 'already_resolved') {
        const expired = result.claim.status === 'expired';
        throw new ApiError('already_resolved', expired ? 'claim expired without an outcome' : 'claim already resolved', {
          status: result.claim.status,
        });
      }
      const { calibrated_p } = calibrate(result.claim.predicted_p, await repo.bins(result.claim.agent_id, result.claim.kind));
      const { type } = JSON.parse(result.claim.resolver_json) as ClaimInput['outcome_resolver'];
      const response = {
        claim_id: claimId,
        status: 'resolved' as const,
        outcome,
        calibrated_p,
        outcome_source: source,
        outcome_resolver: resolverStatus(type, source),
      };
      seal?.(response);
      return response;
    });
  }

  async calibrateP(agentId: string, kind: string, predictedP: number) {
    return calibrate(predictedP, await this.repo.bins(agentId, kind));
  }

  async curve(agentId: string, kind: string) {
    const [bins, counts] = await Promise.all([this.repo.bins(agentId, kind), this.repo.claimCounts(agentId)]);
    const c = curve(bins);
    const mine = counts.find((k) => k.kind === kind);
    return {
      agent_id: agentId,
      kind,
      bins: c.bins,
      ece: c.ece,
      brier: c.brier,
      total_claims: mine?.n ?? 0,
      resolved_claims: c.resolved,
      verified_outcomes: mine?.verified ?? 0,
      self_reported_outcomes: mine?.self_reported ?? 0,
    };
  }

  /** The card from the stored bins, or from `bins` given (calib-pro's verified-only figures). */
  async agentCard(agentId: string, binsOf?: (BinAggregate & { kind: string })[]) {
    const [bins, counts] = await Promise.all([binsOf ?? this.repo.allBins(agentId), this.repo.claimCounts(agentId)]);
    const kinds = counts.map(({ kind, n, verified, self_reported }) => {
      const c = curve(bins.filter((b) => b.kind === kind));
      return {
        kind,
        claims: n,
        resolved: c.resolved,
        verified_outcomes: verified,
        self_reported_outcomes: self_reported,
        ece: c.ece,
        brier: c.brier,
        miscalibration: miscalibration(c),
      };
    });
    const total = (pick: (k: (typeof counts)[number]) => number) => counts.reduce((sum, k) => sum + pick(k), 0);
    return {
      agent_id: agentId,
      issued_at: unixSeconds(this.clock),
      claims_total: total((k) => k.n),
      verified_outcomes: total((k) => k.verified),
      self_reported_outcomes: total((k) => k.self_reported),
      kinds,
    };
  }

  /** The scheduler's pass: resolve due claims with their resolvers (verified outcomes), expire the rest. */
  async resolveDue(): Promise<{ resolved: number; expired: number }> {
    const nowS = unixSeconds(this.clock);
    let resolved = 0;
    let expired = 0;
    for (const claim of await this.repo.due(nowS)) {
      const { type, config } = JSON.parse(claim.resolver_json) as ClaimInput['outcome_resolver'];
      const resolve = resolverOf(type)?.resolve;
      // A resolver that throws counts as data unavailable, so one bad claim cannot stall the others.
      const resolution = await resolve?.(config, { runner: this.runner, claim }).catch(() => undefined);
      if (resolution) {
        await this.repo.resolve(
          claim.claim_id,
          resolution.outcome,
          'verified',
          JSON.stringify(resolution.evidence),
          this.clock.now(),
          binIndex,
        );
        resolved++;
      } else if (!resolve || nowS > claim.expected_resolution_at + RESOLVER_GRACE_S) {
        await this.repo.expire(claim.claim_id);
        expired++;
      }
    }
    return { resolved, expired };
  }
}
