import { unixSeconds, type Clock } from '../../core/clock.js';
import { ApiError } from '../../core/errors.js';
import type { CalibProRepo, ResolvedOutcome } from '../../store/repos/calib-pro.js';
import type { CalibrationService } from '../service.js';
import { aggregate, curve, miscalibration } from '../reliability.js';

export const PRODUCT_TAG = 'calib-pro';
export type Product = typeof PRODUCT_TAG | 'free';
/** A paid (or pass-covered) claim keeps its agent on calib-pro this long. */
export const PRO_DAYS = 30;
export const HISTORY_WINDOWS = { '30d': 30, '90d': 90, '365d': 365 } as const;
const DAY_MS = 86_400_000;

export interface ProStatus {
  product: Product;
  /** Unix s; null for an agent that never paid. */
  pro_until: number | null;
}

/** Per-kind bin aggregates of resolved outcomes. */
export function aggregateByKind(outcomes: readonly ResolvedOutcome[]) {
  const kinds = [...new Set(outcomes.map((o) => o.kind))];
  return kinds.flatMap((kind) =>
    aggregate(outcomes.filter((o) => o.kind === kind).map((o) => [o.predicted_p, o.outcome] as const)).map((a) => ({ ...a, kind })),
  );
}

/** The curve of a set of outcomes, with how many of them svc verified. */
export function windowFigures(outcomes: readonly ResolvedOutcome[]) {
  const c = curve(aggregate(outcomes.map((o) => [o.predicted_p, o.outcome] as const)));
  const verified = outcomes.filter((o) => o.outcome_source === 'verified').length;
  return {
    resolved: c.resolved,
    verified_outcomes: verified,
    self_reported_outcomes: c.resolved - verified,
    ece: c.ece,
    brier: c.brier,
    miscalibration: miscalibration(c),
    bins: c.bins,
  };
}

/** The paid tier of the calibration ledger: status, verified-only cards and per-kind history windows. */
export class CalibPro {
  constructor(
    private readonly repo: CalibProRepo,
    private readonly calib: CalibrationService,
    private readonly clock: Clock,
  ) {}

  async status(agentId: string): Promise<ProStatus> {
    const row = await this.repo.proAgent(agentId);
    const active = row !== undefined && row.pro_until > this.clock.now();
    return { product: active ? PRODUCT_TAG : 'free', pro_until: row ? Math.floor(row.pro_until / 1000) : null };
  }

  /** A 403 naming the agent unless it is on calib-pro now. */
  async requirePro(agentId: string): Promise<ProStatus> {
    const status = await this.status(agentId);
    if (status.product !== PRODUCT_TAG) {
      throw new ApiError(
        'forbidden',
        `${agentId} is not on calib-pro: record a claim with ?product=calib-pro (paid with x402 or covered by a pass)`,
        { agent_id: agentId, reason: 'calib_pro_required' },
      );
    }
    return status;
  }

  /** Stores a calib-pro claim's payment and keeps its agent on calib-pro for PRO_DAYS from now. */
  async recordPaidClaim(agentId: string, claimId: string, payment: { method: string; ref?: string }): Promise<ProStatus> {
    const now = this.clock.now();
    const proUntil = now + PRO_DAYS * DAY_MS;
    await this.repo.recordPaidClaim(
      { claim_id: claimId, agent_id: agentId, method: payment.method, payment_ref: payment.ref ?? null, paid_at: now },
      proUntil,
    );
    return { product: PRODUCT_TAG, pro_until: Math.floor(proUntil / 1000) };
  }

  /**
   * The public card: for a calib-pro agent its figures (resolved, ece, brier, miscalibration) come
   * from verified outcomes only; free agents get the ledger's card as it always was.
   */
  async card(agentId: string) {
    const status = await this.status(agentId);
    if (status.product === 'free') return { ...(await this.calib.agentCard(agentId)), ...status, outcomes: 'all' as const };
    const verified = await this.repo.resolvedOutcomes(agentId, { source: 'verified' });
    return { ...(await this.calib.agentCard(agentId, aggregateByKind(verified))), ...status, outcomes: 'verified_only' as const };
  }

  /** One kind's figures over the outcomes resolved in each of the last 30, 90 and 365 days. */
  async history(agentId: string, kind: string) {
    const status = await this.requirePro(agentId);
    const now = this.clock.now();
    const outcomes = await this.repo.resolvedOutcomes(agentId, { kind, sinceMs: now - HISTORY_WINDOWS['365d'] * DAY_MS });
    const windows = Object.entries(HISTORY_WINDOWS).map(([window, days]) => ({
      window,
      from: unixSeconds(this.clock) - days * 86_400,
      ...windowFigures(outcomes.filter((o) => o.resolved_at > now - days * DAY_MS)),
    }));
    return { agent_id: agentId, kind, ...status, as_of: unixSeconds(this.clock), windows };
  }
}
