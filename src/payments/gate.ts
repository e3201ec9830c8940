import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical-json.js';
import { ApiError } from '../core/errors.js';
import { unixSeconds, type Clock } from '../core/clock.js';
import type { Config } from '../config.js';
import type { PaymentsRepo } from '../store/repos/payments.js';
import { PaymentRequiredError, challengeMemo, paymentChallenge, paymentRequirements, settlementFailed, type Requirement } from './challenge.js';
import type { CheckoutVerifier } from './checkout.js';
import type { Facilitator } from './facilitator.js';
import { hashToken, type IssuedPass, type PassKind, type Passes } from './passes.js';
import { HeaderNotJson, authorizationKey, decodePaymentHeader, verifyPayment } from './x402.js';

/** Paid access a request carries, once verified. */
export interface PaymentGrant {
  method: 'x402' | 'pass' | 'session';
  payer?: string;
  /** x402: the single-use key this payment claimed. */
  authKey?: string;
  /** An earlier answer to this very paid request (a retry after a lost response). */
  storedResponse?: unknown;
  /** session: the pass the checkout session was redeemed into. */
  pass?: { token: string; expiresAt: number };
}

export interface FinishOutcome {
  /** False when the answer failed (e.g. every bundle query failed): nothing is charged. */
  charge: boolean;
  /** The answer, kept for idempotent retries. */
  body?: unknown;
}

/**
 * The seam between paid routes and payment verification. A paid route asks `authorize`; with no
 * grant it throws `challenge(...)` (HTTP 402); after answering it calls `finish` to settle the
 * payment, or to release it when the answer failed.
 */
export interface PaymentGate {
  authorize(request: FastifyRequest, requirement: Requirement): Promise<PaymentGrant | undefined>;
  challenge(request: FastifyRequest, requirement: Requirement, reason?: string): PaymentRequiredError;
  finish(request: FastifyRequest, grant: PaymentGrant, outcome: FinishOutcome): Promise<Record<string, string>>;
  /** True when the request presents a valid day or week pass (unlimited streams and bundles). */
  hasPass(request: FastifyRequest): Promise<boolean>;
  /** Sells a pass for an x402 payment of its price (402 until paid). */
  buyPass(request: FastifyRequest, kind: PassKind, requirement: Requirement): Promise<IssuedPass>;
  /** Settles authorizations queued by PAYMENT_SETTLE=async; retried until their validBefore. */
  settlePending(): Promise<void>;
}

/** Identifies what is being paid for: method, URL and the canonical body. */
export function requestKey(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : canonicalJson(request.body);
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');
}

export interface GateDeps {
  config: Config;
  clock: Clock;
  repo: PaymentsRepo;
  passes: Passes;
  memoSecret: Buffer;
  facilitator?: Facilitator;
  checkout?: CheckoutVerifier;
}

const bearer = (request: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];

/**
 * x402 (USDC on Base, verified locally), passes (`Authorization: Bearer svc-pass_…`) and checkout
 * sessions (`session_id` in the body). Each x402 authorization is claimed in the store before the
 * handler runs, so it pays for one answer on any number of instances.
 */
export class X402Gate implements PaymentGate {
  constructor(private readonly deps: GateDeps) {}

  challenge(request: FastifyRequest, requirement: Requirement, reason?: string): PaymentRequiredError {
    const { config, clock, memoSecret } = this.deps;
    return new PaymentRequiredError(paymentChallenge({ config, nowS: unixSeconds(clock), memoSecret, requestKey: requestKey(request) }, requirement, reason));
  }

  async hasPass(request: FastifyRequest): Promise<boolean> {
    const token = bearer(request);
    return Boolean(token) && (await this.deps.passes.check(token!, this.deps.clock.now())) === 'valid';
  }

  async authorize(request: FastifyRequest, requirement: Requirement): Promise<PaymentGrant | undefined> {
    const token = bearer(request);
    if (token) {
      const state = await this.deps.passes.check(token, this.deps.clock.now());
      if (state !== 'valid') throw this.challenge(request, requirement, state === 'expired' ? 'pass_expired' : 'pass_unknown');
      return { method: 'pass' };
    }
    const sessionId = (request.body as { session_id?: unknown } | undefined)?.session_id;
    if (typeof sessionId === 'string') return this.fromCheckout(request, requirement, sessionId);
    const header = request.headers['x-payment'];
    if (typeof header === 'string' && header.trim()) return this.fromX402(request, requirement, header);
    return undefined;
  }

  async finish(_request: FastifyRequest, grant: PaymentGrant, outcome: FinishOutcome): Promise<Record<string, string>> {
    if (grant.method === 'session') return { 'x-svc-pass': grant.pass!.token, 'x-svc-pass-expires': new Date(grant.pass!.expiresAt * 1000).toISOString() };
    if (grant.method !== 'x402' || grant.storedResponse !== undefined) return {};
    const authKey = grant.authKey!;
    if (!outcome.charge) {
      await this.deps.repo.release(authKey);
      return { 'x-payment-status': 'released' };
    }
    await this.deps.repo.update(authKey, { response_json: outcome.body === undefined ? null : JSON.stringify(outcome.body) });
    return this.settle(authKey);
  }

  async buyPass(request: FastifyRequest, kind: PassKind, requirement: Requirement): Promise<IssuedPass> {
    const header = request.headers['x-payment'];
    if (typeof header !== 'string' || !header.trim()) throw this.challenge(request, requirement);
    const grant = await this.fromX402(request, requirement, header);
    const origin = `x402:${grant.authKey}`;
    if (grant.storedResponse !== undefined) return (await this.deps.passes.find(origin))!;
    // A pass is only issued once its payment settled, whenever a facilitator can settle it.
    await this.settle(grant.authKey!, this.deps.facilitator ? 'sync' : 'off');
    await this.deps.repo.update(grant.authKey!, { response_json: JSON.stringify({ kind }) });
    return this.deps.passes.issue(kind, origin, this.deps.clock.now());
  }

  async settlePending(): Promise<void> {
    const { repo, facilitator, clock } = this.deps;
    if (!facilitator) return;
    const nowS = unixSeconds(clock);
    await repo.expirePending(nowS);
    for (const row of await repo.pendingSettlement(nowS)) {
      const result = await facilitator.settle(JSON.parse(row.payload_json), JSON.parse(row.requirements_json));
      await repo.update(row.auth_key, {
        status: result.success ? 'settled' : 'pending',
        settle_attempts: row.settle_attempts + 1,
        facilitator_json: JSON.stringify(result),
      });
    }
  }

  /** Settles one claimed authorization per PAYMENT_SETTLE; sync failures become a 402. */
  async settle(authKey: string, mode = this.deps.config.paymentSettle): Promise<Record<string, string>> {
    const { repo, facilitator, config } = this.deps;
    if (mode === 'off' || !facilitator) {
      await repo.update(authKey, { status: 'unsettled' });
      return {};
    }
    if (mode === 'async') {
      await repo.update(authKey, { status: 'pending' });
      return { 'x-payment-status': 'pending' };
    }
    const row = (await repo.find(authKey))!;
    const result = await facilitator.settle(JSON.parse(row.payload_json), JSON.parse(row.requirements_json));
    await repo.update(authKey, { status: result.success ? 'settled' : 'settle_failed', settle_attempts: row.settle_attempts + 1, facilitator_json: JSON.stringify(result) });
    if (!result.success) throw new PaymentRequiredError(settlementFailed(JSON.parse(row.requirements_json), unixSeconds(this.deps.clock), result.errorReason));
    const response = { success: true, transaction: result.transaction ?? '', network: config.x402Network, payer: row.payer };
    return { 'x-payment-response': Buffer.from(JSON.stringify(response)).toString('base64') };
  }

  private async fromX402(request: FastifyRequest, requirement: Requirement, header: string): Promise<PaymentGrant> {
    const { config, clock, repo, memoSecret } = this.deps;
    let decoded;
    try {
      decoded = decodePaymentHeader(header);
    } catch (e) {
      if (e instanceof HeaderNotJson) throw new ApiError('bad_request', e.message, { field: 'X-Payment', rule: 'json' });
      throw e;
    }
    if (!decoded.ok) throw this.challenge(request, requirement, decoded.reason);
    const payload = decoded.payload;
    const nowS = unixSeconds(clock);
    const verdict = await verifyPayment(payload, { network: config.x402Network, payTo: config.payTo, amount: requirement.amount, maxTimeoutSeconds: config.x402MaxTimeoutS, nowS });
    if (!verdict.ok) throw this.challenge(request, requirement, verdict.reason);

    const authKey = authorizationKey(payload, config.x402Network);
    const key = requestKey(request);
    const requirements = paymentRequirements({ config, nowS, memoSecret, requestKey: key }, requirement);
    const claimed = await repo.reserve({
      auth_key: authKey,
      payer: verdict.payer,
      amount: requirement.amount.toString(),
      network: config.x402Network,
      resource: requirement.resource,
      request_key: key,
      bound_to_memo: payload.payload.authorization.nonce.toLowerCase() === challengeMemo(memoSecret, key, requirement.amount) ? 1 : 0,
      status: 'reserved',
      valid_before: Number(payload.payload.authorization.validBefore),
      created_at: clock.now(),
      payload_json: JSON.stringify(payload),
      requirements_json: JSON.stringify(requirements),
      response_json: null,
      settle_attempts: 0,
      facilitator_json: null,
    });
    if (claimed) return { method: 'x402', payer: verdict.payer, authKey };
    const earlier = await repo.find(authKey);
    if (earlier && earlier.request_key === key && earlier.response_json !== null) {
      return { method: 'x402', payer: verdict.payer, authKey, storedResponse: JSON.parse(earlier.response_json) };
    }
    throw this.challenge(request, requirement, 'replayed_authorization');
  }

  private async fromCheckout(request: FastifyRequest, requirement: Requirement, sessionId: string): Promise<PaymentGrant> {
    const { checkout, passes, repo, clock } = this.deps;
    if (!checkout) throw this.challenge(request, requirement, 'checkout_not_configured');
    checkout.assertWellFormed(sessionId);
    const origin = `checkout:${sessionId}`;
    let pass = await passes.find(origin);
    if (!pass) {
      // First presentation: ask Stripe once, then redeem the session into its pass for good.
      const kind = await checkout.passKind(sessionId, (reason) => this.challenge(request, requirement, reason));
      pass = await passes.issue(kind, origin, clock.now());
      await repo.redeemCheckout(sessionId, hashToken(pass.pass), clock.now());
    }
    if (clock.now() >= pass.expires_at * 1000) throw this.challenge(request, requirement, 'pass_expired');
    return { method: 'session', pass: { token: pass.pass, expiresAt: pass.expires_at } };
  }
}
