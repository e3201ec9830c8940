import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { canonicalJson } from '../core/canonical-json.js';
import { ApiError } from '../core/errors.js';
import { unixSeconds } from '../core/clock.js';
import type { Config } from '../config.js';
import type { OpenApiDoc } from '../core/openapi-doc.js';
import { captureAnswer } from './answers.js';
import { callerOf } from '../protection/service.js';
import { idempotencyKeyOf, keyReused, requestKey, keyedByAuthorization, keyedByIdempotencyKey, type OwnedRequest } from './idempotency.js';
import type { AuthorizationCharge, Charge } from '../store/repos/idempotency.js';
import { Discoveries } from './bazaar.js';
import { PaymentRequiredError } from '../core/payment-required.js';
import {
  challengeMemo,
  paymentChallenge,
  paymentRequiredHeader,
  paymentRequirements,
  paymentRequirementsV2,
  settlementFailed,
  type ChallengeContext,
  type Requirement,
} from './challenge.js';
import { FacilitatorUnavailable } from './facilitator.js';
import { authorizationFields, settleAuthorization, settlePending } from './settlement.js';
import { decodePresentedPayment, passToken, presentedPayment } from './credentials.js';
import { hashToken, type PassKind } from './passes.js';
import type { Tier } from './tier.js';
import { USDC_NETWORKS } from './networks.js';
import { PaymentVerifier } from './verification.js';
import { authorizationKey } from './x402.js';
import type { Claim, FinishOutcome, GateDeps, PassPurchase, PaymentGate, PaymentGrant } from './gate-types.js';

/** A grant before its idempotency is settled: the payer it scopes an Idempotency-Key to. */
type ScopedGrant = PaymentGrant & { payerScope: string };

export type { FinishOutcome, GateDeps, PassPurchase, PaymentGate, PaymentGrant } from './gate-types.js';

const ZERO_ADDRESS = /^0x0{40}$/;

/**
 * x402 (USDC on Base, verified locally), passes (`Authorization: Bearer svc-pass_…`) and checkout
 * sessions (`session_id` in the body). Each x402 authorization is claimed in the store before the
 * handler runs, so it pays for one answer on any number of instances; that answer is kept as it was
 * sent, so a retry of the same request gets it again byte for byte.
 */
export class X402Gate implements PaymentGate {
  /** PAYMENT_SETTLE, unless nothing can settle: no facilitator, or the zero address as recipient. */
  readonly settleMode: Config['paymentSettle'];
  private readonly canSettle: boolean;
  private readonly verifier: PaymentVerifier;
  /** The x402 versions offered and accepted: both, or what the facilitator settles (read at start-up). */
  private versions = new Set<1 | 2>([1, 2]);
  /** What each paid operation's 402 tells x402 discovery, from the app's OpenAPI document. */
  private discoveries?: Discoveries;

  constructor(private readonly deps: GateDeps) {
    this.canSettle = Boolean(deps.facilitator) && !ZERO_ADDRESS.test(deps.config.payTo);
    this.settleMode = this.canSettle ? deps.config.paymentSettle : 'off';
    this.verifier = new PaymentVerifier(deps.config.paymentVerify, deps.facilitator);
  }

  /**
   * Hooks the gate into the app (after the receipt signer, so it sees the bytes that are sent): it
   * keeps each paid answer and releases claims whose request failed. Warns once when x402 payments
   * are accepted but never settled; when they are, asks the facilitator what it settles before the
   * app is ready.
   */
  attach(app: FastifyInstance): void {
    if (app.hasDecorator('swagger')) this.discoveries = new Discoveries(() => app.swagger() as unknown as OpenApiDoc);
    if (this.canSettle) app.addHook('onReady', () => this.readSupported());
    app.decorateRequest('paymentClaim', undefined);
    app.decorateRequest('idempotent', undefined);
    app.addHook(
      'onSend',
      (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
        const { paymentClaim: claim, idempotent: owned } = request;
        if (!claim && !owned) return done(null, payload);
        request.paymentClaim = undefined;
        request.idempotent = undefined;
        this.afterAnswer(claim, owned, reply, payload).then(() => done(null, payload), done);
      },
    );
    if (this.settleMode === 'off') {
      const { paymentSettle, payTo } = this.deps.config;
      app.log.warn(
        { paymentSettle, payTo, facilitator: Boolean(this.deps.facilitator) },
        'x402 payments are verified but never settled (PAYMENT_SETTLE=off, no facilitator, or SVC_PAY_TO is the zero address): paid answers say charged: false',
      );
    }
  }

  /**
   * Keeps the answer a charged request gave (whatever it was: a retry gets the same), or releases what a request
   * that charged nothing claimed, so its payment and its key can be used again.
   */
  private async afterAnswer(claim: Claim | undefined, owned: OwnedRequest | undefined, reply: FastifyReply, payload: unknown) {
    if (claim && !claim.answered) await this.deps.repo.release(claim.authKey);
    if (owned) await this.deps.idempotency.finish(owned, typeof payload === 'string' ? captureAnswer(reply, payload) : undefined);
  }

  /** The 402: x402 v1 (and the seed's invoice) in the body, x402 v2 in `PAYMENT-REQUIRED`. */
  challenge(request: FastifyRequest, requirement: Requirement, reason?: string): PaymentRequiredError {
    return this.paymentRequired(request, requirement, (ctx) => paymentChallenge(ctx, requirement, reason), reason);
  }

  /** A 402 offering only the versions the facilitator settles: no v1 `accepts` or no v2 header otherwise. */
  private paymentRequired(
    request: FastifyRequest,
    requirement: Requirement,
    body: (ctx: ChallengeContext) => Record<string, unknown>,
    reason?: string,
    extraHeaders: Record<string, string> = {},
  ) {
    const ctx = this.challengeContext(request);
    const v1 = body(ctx);
    const headers: Record<string, string> = this.versions.has(2)
      ? { 'payment-required': paymentRequiredHeader(ctx, requirement, reason), ...extraHeaders }
      : extraHeaders;
    return new PaymentRequiredError(this.versions.has(1) ? v1 : { ...v1, accepts: [] }, headers);
  }

  /** Keeps the x402 versions the facilitator settles for the configured network; none is a start-up error. */
  private async readSupported(): Promise<void> {
    const { facilitator, config } = this.deps;
    const kinds = await facilitator!.supported();
    const networks = { 1: config.x402Network, 2: USDC_NETWORKS[config.x402Network].caip2 } as const;
    this.versions = new Set(
      ([1, 2] as const).filter((v) => kinds.some((k) => k.x402Version === v && k.scheme === 'exact' && k.network === networks[v])),
    );
    if (this.versions.size === 0) {
      const listed = kinds.map((k) => `v${k.x402Version} ${k.scheme} ${k.network}`).join(', ') || 'nothing';
      throw new FacilitatorUnavailable(
        `the facilitator at ${facilitator!.baseUrl} settles neither exact on ${networks[1]} (x402 v1) nor on ${networks[2]} (v2); it lists ${listed}`,
      );
    }
  }

  private challengeContext(request: FastifyRequest): ChallengeContext {
    const { config, clock, memoSecret } = this.deps;
    // A probe route (probes.ts) stands for the paid operation of its path.
    const method = request.routeOptions.config.x402ProbeOf ?? request.method;
    const discovery = this.discoveries?.of(method, request.routeOptions.url);
    return { config, nowS: unixSeconds(clock), memoSecret, requestKey: requestKey(request), discovery };
  }

  presentsPass(request: FastifyRequest): boolean {
    return passToken(request) !== undefined;
  }

  async hasPass(request: FastifyRequest): Promise<boolean> {
    const token = passToken(request);
    return Boolean(token) && (await this.deps.passes.check(token!, this.deps.clock.now())) === 'valid';
  }

  async authorize(request: FastifyRequest, requirement: Requirement): Promise<PaymentGrant | undefined> {
    const payment = presentedPayment(request);
    const token = passToken(request);
    if (token) {
      const state = await this.deps.passes.check(token, this.deps.clock.now());
      if (state !== 'valid') throw this.challenge(request, requirement, state === 'expired' ? 'pass_expired' : 'pass_unknown');
      return this.idempotent(request, requirement, { method: 'pass', charges: true, payerScope: `pass:${hashToken(token)}` });
    }
    const sessionId = (request.body as { session_id?: unknown } | undefined)?.session_id;
    if (typeof sessionId === 'string') return this.fromCheckout(request, requirement, sessionId);
    return payment ? this.fromX402(request, requirement, payment) : undefined;
  }

  async authorizeTier(request: FastifyRequest, requirement: Requirement, tier: Tier | undefined): Promise<PaymentGrant | undefined> {
    if (tier === 'free') return undefined;
    const grant = await this.authorize(request, requirement);
    if (!grant && tier === 'paid') throw this.challenge(request, requirement);
    return grant;
  }

  /**
   * Makes a paid request idempotent: keyed by the payer's `Idempotency-Key` when sent, else by its x402
   * authorization (a pass or a checkout session without a key is not deduplicated: it is charged nothing per call).
   * A retry gets the stored answer; the same key on another request is 422 (a key) or 402 `replayed_authorization`.
   */
  private async idempotent(request: FastifyRequest, requirement: Requirement, grant: ScopedGrant): Promise<PaymentGrant> {
    const { payerScope, ...paid } = grant;
    const idempotencyKey = idempotencyKeyOf(request);
    const key = idempotencyKey ? keyedByIdempotencyKey(payerScope, idempotencyKey) : paid.authKey && keyedByAuthorization(paid.authKey);
    if (!key) return paid;
    const begun = await this.deps.idempotency.begin(key, requestKey(request), callerOf(request));
    if ('stored' in begun) return { ...paid, stored: begun.stored };
    if ('conflict' in begun) {
      if (!idempotencyKey) throw this.challenge(request, requirement, 'replayed_authorization');
      throw keyReused();
    }
    request.idempotent = begun.owned;
    return paid;
  }

  async finish(request: FastifyRequest, grant: PaymentGrant, outcome: FinishOutcome): Promise<Record<string, string>> {
    const recovered = request.idempotent?.recovered;
    if (recovered) {
      request.idempotent!.answered = true;
      return recovered.settleHeaders;
    }
    const claim = request.paymentClaim;
    if (grant.method === 'x402' && claim) {
      if (outcome.charge) return this.chargeX402(request, claim, this.settleMode);
      request.paymentClaim = undefined;
      await this.deps.repo.release(claim.authKey);
      return { 'x-payment-status': 'released' };
    }
    const headers: Record<string, string> =
      grant.method === 'session'
        ? { 'x-svc-pass': grant.pass!.token, 'x-svc-pass-expires': new Date(grant.pass!.expiresAt * 1000).toISOString() }
        : {};
    if (outcome.charge) await this.record(request, { method: 'pass', ref: grant.method, amount: '0', settleHeaders: headers });
    return headers;
  }

  async buyPass(request: FastifyRequest, kind: PassKind, requirement: Requirement): Promise<PassPurchase> {
    const payment = presentedPayment(request);
    if (!payment) throw this.challenge(request, requirement);
    const grant = await this.fromX402(request, requirement, payment);
    if (grant.stored) return { stored: grant.stored };
    const recovered = request.idempotent?.recovered;
    // A pass is only issued once its payment settled, whenever a facilitator can settle it.
    const headers = recovered
      ? recovered.settleHeaders
      : await this.chargeX402(request, request.paymentClaim!, this.canSettle ? 'sync' : 'off');
    if (recovered) request.idempotent!.answered = true;
    // The pass is derived from the authorization that paid, so a recovered run issues the same one.
    const pass = await this.deps.passes.issue(kind, `x402:${recovered?.ref ?? grant.authKey}`, this.deps.clock.now());
    return { pass, headers };
  }

  settlePending(): Promise<void> {
    return settlePending(this.deps);
  }

  /** Settles a claimed authorization (per `mode`) and records the charge: the answer then stands, for every retry. */
  private async chargeX402(request: FastifyRequest, claim: Claim, mode: Config['paymentSettle']): Promise<Record<string, string>> {
    const { headers, authorization } = await this.settle(request, claim, mode);
    // Nothing settles with PAYMENT_SETTLE=off: the answer says charged: false, and the spend recorded is 0.
    const amount = mode === 'off' ? '0' : claim.requirement.amount.toString();
    await this.record(request, { method: 'x402', ref: claim.authKey, amount, settleHeaders: headers }, authorization);
    claim.answered = true;
    return headers;
  }

  /**
   * Records a charge with the request's idempotent row (one transaction with the authorization's status), and only
   * then lets the answer go. A run that lost its request to a takeover records nothing: the other run answers.
   */
  private async record(request: FastifyRequest, charge: Charge, authorization?: AuthorizationCharge): Promise<void> {
    const owned = request.idempotent;
    if (!owned) {
      if (authorization) await this.deps.repo.update(authorization.authKey, authorizationFields(authorization));
      return;
    }
    if (!(await this.deps.idempotency.recordCharge(owned, charge, authorization)))
      throw new ApiError('idempotency_in_progress', 'another run took this paid request over; retry to get its answer', {
        retry_after_s: 1,
      });
    owned.answered = true;
    this.deps.afterCharge?.();
  }

  /** Settles one claimed authorization; a sync failure is recorded and answered 402 (the answer is withheld). */
  private async settle(request: FastifyRequest, claim: Claim, mode: Config['paymentSettle']) {
    const settled = await settleAuthorization(this.deps, claim, mode);
    if (!settled.failed) return settled;
    await this.deps.repo.update(claim.authKey, authorizationFields(settled.authorization));
    const { requirement } = claim;
    throw this.paymentRequired(
      request,
      requirement,
      (ctx) => settlementFailed(ctx, requirement, settled.failed),
      'settlement_failed',
      settled.headers,
    );
  }

  private async fromX402(
    request: FastifyRequest,
    requirement: Requirement,
    presented: { version: 1 | 2; header: string },
  ): Promise<PaymentGrant> {
    const { config, clock, repo, memoSecret } = this.deps;
    const decoded = decodePresentedPayment(presented);
    if (!decoded.ok) throw this.challenge(request, requirement, decoded.reason);
    const { payment } = decoded;
    if (!this.versions.has(payment.version)) throw this.challenge(request, requirement, 'invalid_x402_version');
    const ctx = this.challengeContext(request);
    // The facilitator verifies and settles against the requirements of the version paid; a v2 payer must echo them unchanged.
    const requirements = payment.version === 2 ? paymentRequirementsV2(ctx, requirement) : paymentRequirements(ctx, requirement);
    if (payment.accepted && canonicalJson(payment.accepted) !== canonicalJson(requirements))
      throw this.challenge(request, requirement, 'invalid_payment_requirements');
    const expectation = {
      network: config.x402Network,
      payTo: config.payTo,
      amount: requirement.amount,
      maxTimeoutSeconds: config.x402MaxTimeoutS,
      nowS: ctx.nowS,
    };
    const verdict = await this.verifier.verify(payment, expectation, requirements).catch((e: unknown) => {
      if (!(e instanceof FacilitatorUnavailable)) throw e;
      request.log.warn({ err: e }, 'x402 facilitator gave no verdict');
      throw new ApiError('service_unavailable', 'the x402 facilitator could not verify the payment; try again', { retry_after_s: 5 });
    });
    if (!verdict.ok) throw this.challenge(request, requirement, verdict.reason);

    const authKey = authorizationKey(payment, config.x402Network);
    const authorization = payment.payload.authorization;
    const charges = this.settleMode !== 'off';
    const grant = await this.idempotent(request, requirement, {
      method: 'x402',
      payer: verdict.payer,
      authKey,
      charges,
      payerScope: `wallet:${verdict.payer.toLowerCase()}`,
    });
    // A stored answer, or a run that died after its charge was recorded: the payment is not claimed again.
    if (grant.stored || request.idempotent?.recovered) return grant;
    const claimed = await repo.reserve({
      auth_key: authKey,
      payer: verdict.payer,
      amount: requirement.amount.toString(),
      network: config.x402Network,
      resource: requirement.resource,
      request_key: ctx.requestKey,
      bound_to_memo: authorization.nonce.toLowerCase() === challengeMemo(memoSecret, ctx.requestKey, requirement.amount) ? 1 : 0,
      status: 'reserved',
      valid_before: Number(authorization.validBefore),
      created_at: clock.now(),
      payload_json: JSON.stringify(payment.wire),
      requirements_json: JSON.stringify(requirements),
      settle_attempts: 0,
      facilitator_json: null,
    });
    if (!claimed && !(await this.adoptable(request, authKey, ctx.requestKey)))
      throw this.challenge(request, requirement, 'replayed_authorization');
    request.paymentClaim = { authKey, requirement, version: payment.version, answered: false };
    return grant;
  }

  /** An authorization claimed by a run that died before charging it, for this very request: the run taking over adopts it. */
  private async adoptable(request: FastifyRequest, authKey: string, requestKeyOfThis: string): Promise<boolean> {
    if (!request.idempotent?.takenOver) return false;
    const row = await this.deps.repo.find(authKey);
    return row?.status === 'reserved' && row.request_key === requestKeyOfThis;
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
    const grant = { method: 'session' as const, charges: true, pass: { token: pass.pass, expiresAt: pass.expires_at } };
    return this.idempotent(request, requirement, { ...grant, payerScope: `pass:${hashToken(pass.pass)}` });
  }
}
