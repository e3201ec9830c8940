import type { FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Config } from '../config.js';
import type { PaymentsRepo } from '../store/repos/payments.js';
import type { StoredAnswer } from './answers.js';
import type { PaymentRequiredError } from '../core/payment-required.js';
import type { Requirement } from './challenge.js';
import type { CheckoutVerifier } from './checkout.js';
import type { Facilitator } from './facilitator.js';
import type { IssuedPass, PassKind, Passes } from './passes.js';
import type { Tier } from './tier.js';
import type { IdempotentRequests, OwnedRequest } from './idempotency.js';

/** Paid access a request carries, once verified. */
export interface PaymentGrant {
  method: 'x402' | 'pass' | 'session';
  payer?: string;
  /** x402: the single-use key this payment claimed. */
  authKey?: string;
  /** False when an answer takes no money: x402 while nothing settles (PAYMENT_SETTLE=off, no facilitator, zero pay-to). */
  charges: boolean;
  /** The answer this very paid request already got (a retry, concurrent or after a lost response): send it again as it is. */
  stored?: StoredAnswer;
  /** session: the pass the checkout session was redeemed into. */
  pass?: { token: string; expiresAt: number };
}

/** A pass sold now (with its settlement headers), or the stored answer of the same purchase retried. */
export type PassPurchase = { pass: IssuedPass; headers: Record<string, string> } | { stored: StoredAnswer };

export interface FinishOutcome {
  /** False when the answer failed (e.g. every bundle query failed): the authorization is released. */
  charge: boolean;
}

/** An x402 authorization claimed for one request, with what it pays for and the wire version it came in. */
export interface Claim {
  authKey: string;
  requirement: Requirement;
  version: 1 | 2;
  answered: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The x402 authorization this request claimed; `answered` once `finish` kept it. */
    paymentClaim?: Claim;
    /** The idempotent paid request this run owns (src/payments/idempotency.ts). */
    idempotent?: OwnedRequest;
  }
}

/**
 * The seam between paid routes and payment verification. A paid route asks `authorize`; with no
 * grant it throws `challenge(...)` (HTTP 402); after answering it calls `finish` to settle the
 * payment, or to release it when the answer failed. A request that fails after its authorization
 * was claimed (an error, or no `finish`) releases it too: nothing is charged for a failure.
 */
export interface PaymentGate {
  authorize(request: FastifyRequest, requirement: Requirement): Promise<PaymentGrant | undefined>;
  /**
   * `authorize` for routes with a free tier: `free` asks for no payment, `paid` demands one (402 without),
   * no tier pays only when a payment is present.
   */
  authorizeTier(request: FastifyRequest, requirement: Requirement, tier: Tier | undefined): Promise<PaymentGrant | undefined>;
  challenge(request: FastifyRequest, requirement: Requirement, reason?: string): PaymentRequiredError;
  finish(request: FastifyRequest, grant: PaymentGrant, outcome: FinishOutcome): Promise<Record<string, string>>;
  /** True when the request presents a valid day or week pass (unlimited streams and bundles). */
  /** Does the request carry a pass token (valid or not)? No look-up. */
  presentsPass(request: FastifyRequest): boolean;
  hasPass(request: FastifyRequest): Promise<boolean>;
  /** Sells a pass for an x402 payment of its price (402 until paid), with the settlement headers; a retry gets its stored answer. */
  buyPass(request: FastifyRequest, kind: PassKind, requirement: Requirement): Promise<PassPurchase>;
  /** Settles authorizations queued by PAYMENT_SETTLE=async; retried until their validBefore. */
  settlePending(): Promise<void>;
}

export interface GateDeps {
  config: Config;
  clock: Clock;
  repo: PaymentsRepo;
  passes: Passes;
  memoSecret: Buffer;
  facilitator?: Facilitator;
  checkout?: CheckoutVerifier;
  idempotency: IdempotentRequests;
  /** Test-only (SVC_TEST_CRASH_AT=after_charge): runs right after a charge is recorded, before the answer is kept. */
  afterCharge?: () => void;
}
