import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import { usd } from '../payments/pricing.js';
import { hashToken } from '../payments/passes.js';
import { POLICY_WINDOW_S } from '../protection/ratelimit-fields.js';
import type { Standing, Tier } from '../protection/service.js';
import type { IdempotencyRepo } from '../store/repos/idempotency.js';
import type { PaymentsRepo } from '../store/repos/payments.js';

/** How the caller was told apart, from the rate limiter's subject: no key, token or address is echoed back. */
const IDENTIFIED_BY = { ip: 'address', key: 'api_key', pass: 'pass', agent: 'agent_key' } as const;

export interface StandingQuery {
  /** This very request's take from its bucket (the answer's RateLimit fields say the same). */
  standing: Standing | undefined;
  /** The pass the request presents, if any. */
  passToken: string | undefined;
  /** The caller's hashed subject (src/protection/service.ts callerOf). */
  caller: string;
}

/**
 * A caller's standing (GET /api/v1/limits): its tier and what is left of its rate limit, the pass it presents and
 * how long that runs, and what it was charged in x402 payments since 00:00 UTC. Passes are time passes: their
 * balance is the time left.
 */
export class Limits {
  constructor(
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly repos: { payments: PaymentsRepo; idempotency: IdempotencyRepo },
  ) {}

  async standingOf({ standing, passToken, caller }: StandingQuery) {
    const nowMs = this.clock.now();
    const tier: Tier = standing?.identity.tier ?? 'anonymous';
    const limit = standing?.limit ?? this.config.ratePerMin.anonymous;
    const prefix = (standing?.identity.subject.split(':')[0] ?? 'ip') as keyof typeof IDENTIFIED_BY;
    const pass = passToken ? await this.repos.payments.findPass(hashToken(passToken)) : undefined;
    const dayStartMs = nowMs - (nowMs % 86_400_000);
    const charges = (await this.repos.idempotency.x402ChargesSince(caller, dayStartMs)).filter((amount) => amount !== '0');
    const spent = charges.reduce((sum, amount) => sum + BigInt(amount), 0n);
    return {
      tier,
      identified_by: IDENTIFIED_BY[prefix] ?? 'address',
      rate: {
        policy: tier,
        limit,
        window_s: POLICY_WINDOW_S,
        remaining: standing?.bucket.remaining ?? limit,
        reset_s: standing?.bucket.resetS ?? 0,
      },
      pass: pass
        ? {
            kind: pass.kind,
            expires_at: Math.floor(pass.expires_at / 1000),
            remaining_s: Math.max(0, Math.floor((pass.expires_at - nowMs) / 1000)),
            valid: nowMs < pass.expires_at,
          }
        : null,
      spend_today: { amount: spent.toString(), usd: usd(spent), asset: 'USDC', paid_calls: charges.length, since: dayStartMs / 1000 },
      as_of: Math.floor(nowMs / 1000),
    };
  }
}
