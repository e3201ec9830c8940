import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical-json.js';
import { ApiError } from '../core/errors.js';
import { unixSeconds } from '../core/clock.js';
import type { Config } from '../config.js';
import type { OpenApiDoc } from '../core/openapi-doc.js';
import { captureAnswer } from './answers.js';
import { Discoveries } from './bazaar.js';
import {
  PaymentRequiredError,
  challengeMemo,
  paymentChallenge,
  paymentRequiredHeader,
  paymentRequirements,
  paymentRequirementsV2,
  settlementFailed,
  settlementResponseHeader,
  type ChallengeContext,
  type Requirement,
} from './challenge.js';
import { FacilitatorUnavailable } from './facilitator.js';
import { decodePresentedPayment, passToken, presentedPayment } from './credentials.js';
import { hashToken, type PassKind } from './passes.js';
import type { Tier } from './tier.js';
import { USDC_NETWORKS } from './networks.js';
import { PaymentVerifier } from './verification.js';
import { authorizationKey } from './x402.js';
import type { Claim, FinishOutcome, GateDeps, PassPurchase, PaymentGate, PaymentGrant } from './gate-types.js';

export type { FinishOutcome, GateDeps, PassPurchase, PaymentGate, PaymentGrant } from './gate-types.js';

/** An authorization as the repository stores it: the decoded payment payload. */
type StoredPayload = { x402Version: number };

/** Identifies what is being paid for: method, URL and the canonical body. */
export function requestKey(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : canonicalJson(request.body);
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');
}

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
    app.addHook(
      'onSend',
      (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
        const claim = request.paymentClaim;
        if (!claim) return done(null, payload);
        request.paymentClaim = undefined;
        this.settleClaim(claim, reply, payload).then(() => done(null, payload), done);
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

  /** Keeps the answer a claim paid for, or releases a claim whose request failed before answering. */
  private async settleClaim(claim: NonNullable<FastifyRequest['paymentClaim']>, reply: FastifyReply, payload: unknown): Promise<void> {
    if (claim.answered && reply.statusCode < 400 && typeof payload === 'string')
      await this.deps.repo.saveAnswer(claim.authKey, captureAnswer(reply, payload));
    else if (!claim.answered) await this.deps.repo.release(claim.authKey);
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
    const discovery = this.discoveries?.of(request.method, request.routeOptions.url);
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
      return { method: 'pass', charges: true };
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

  async finish(request: FastifyRequest, grant: PaymentGrant, outcome: FinishOutcome): Promise<Record<string, string>> {
    if (grant.method === 'session')
      return { 'x-svc-pass': grant.pass!.token, 'x-svc-pass-expires': new Date(grant.pass!.expiresAt * 1000).toISOString() };
    const claim = request.paymentClaim;
    if (grant.method !== 'x402' || !claim) return {};
    if (!outcome.charge) {
      request.paymentClaim = undefined;
      await this.deps.repo.release(claim.authKey);
      return { 'x-payment-status': 'released' };
    }
    const headers = await this.settle(request, claim, this.settleMode);
    claim.answered = true;
    return headers;
  }

  async buyPass(request: FastifyRequest, kind: PassKind, requirement: Requirement): Promise<PassPurchase> {
    const payment = presentedPayment(request);
    if (!payment) throw this.challenge(request, requirement);
    const grant = await this.fromX402(request, requirement, payment);
    if (grant.stored) return { stored: grant.stored };
    // A pass is only issued once its payment settled, whenever a facilitator can settle it.
    const claim = request.paymentClaim!;
    const headers = await this.settle(request, claim, this.canSettle ? 'sync' : 'off');
    const pass = await this.deps.passes.issue(kind, `x402:${grant.authKey}`, this.deps.clock.now());
    claim.answered = true;
    return { pass, headers };
  }

  async settlePending(): Promise<void> {
    const { repo, facilitator, clock } = this.deps;
    if (!facilitator) return;
    const nowS = unixSeconds(clock);
    await repo.expirePending(nowS);
    for (const row of await repo.pendingSettlement(nowS)) {
      const result = await facilitator.settle(JSON.parse(row.payload_json) as StoredPayload, JSON.parse(row.requirements_json));
      await repo.update(row.auth_key, {
        status: result.success ? 'settled' : 'pending',
        settle_attempts: row.settle_attempts + 1,
        facilitator_json: JSON.stringify(result),
      });
    }
  }

  /**
   * Settles one claimed authorization; a sync failure is a 402 whose payment-response header says
   * `{success: false, errorReason}`. Answers in the header of the version paid.
   */
  private async settle(
    request: FastifyRequest,
    { authKey, requirement, version }: Claim,
    mode: Config['paymentSettle'],
  ): Promise<Record<string, string>> {
    const { repo, facilitator, config } = this.deps;
    if (mode === 'off' || !facilitator) {
      await repo.update(authKey, { status: 'unsettled' });
      return { 'x-payment-status': 'unsettled' };
    }
    if (mode === 'async') {
      await repo.update(authKey, { status: 'pending' });
      return { 'x-payment-status': 'pending' };
    }
    const row = (await repo.find(authKey))!;
    const result = await facilitator.settle(JSON.parse(row.payload_json) as StoredPayload, JSON.parse(row.requirements_json));
    await repo.update(authKey, {
      status: result.success ? 'settled' : 'settle_failed',
      settle_attempts: row.settle_attempts + 1,
      facilitator_json: JSON.stringify(result),
    });
    const network = version === 2 ? USDC_NETWORKS[config.x402Network].caip2 : config.x402Network;
    const { success, transaction = '', errorReason } = result;
    const header = settlementResponseHeader(version, {
      success,
      transaction,
      network,
      payer: row.payer,
      ...(errorReason ? { errorReason } : {}),
    });
    if (!result.success) {
      throw this.paymentRequired(
        request,
        requirement,
        (ctx) => settlementFailed(ctx, requirement, result.errorReason),
        'settlement_failed',
        header,
      );
    }
    return header;
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
    const grant = { method: 'x402' as const, payer: verdict.payer, authKey, charges: this.settleMode !== 'off' };
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
      response_json: null,
      settle_attempts: 0,
      facilitator_json: null,
    });
    if (claimed) {
      request.paymentClaim = { authKey, requirement, version: payment.version, answered: false };
      return grant;
    }
    const stored = await repo.findAnswer(authKey, ctx.requestKey);
    if (stored) return { ...grant, stored };
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
    return { method: 'session', charges: true, pass: { token: pass.pass, expiresAt: pass.expires_at } };
  }
}
