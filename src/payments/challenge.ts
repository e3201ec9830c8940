import { createHmac } from 'node:crypto';
import type { Config } from '../config.js';
import type { Discovery } from './bazaar.js';
import { USDC_NETWORKS } from './networks.js';
import { alternativesTo, priceOf } from './alternatives.js';

export interface Requirement {
  /** Atomic USDC units. */
  amount: bigint;
  /** Absolute URL of the resource being paid for. */
  resource: string;
  description: string;
}

export interface ChallengeContext {
  config: Config;
  /** Unix seconds. */
  nowS: number;
  /** Secret for memos, so a memo can be checked without storing it. */
  memoSecret: Buffer;
  /** Identifies the request being paid for (method, path, canonical body hash). */
  requestKey: string;
  /** How to call the paid operation and what it answers: v1 `outputSchema`, v2 `extensions.bazaar`. */
  discovery?: Discovery;
}

/**
 * `memo`: 32-byte hex, an HMAC of the request being paid for and its price. A payment whose nonce
 * equals it is bound to this request; since the memo is stable per request, the replay store still
 * lets it pay only once.
 */
export function challengeMemo(memoSecret: Buffer, requestKey: string, amount: bigint): string {
  return `0x${createHmac('sha256', memoSecret).update(`${requestKey}|${amount}`).digest('hex')}`;
}

/** The x402 v1 PaymentRequirements for one price: `accepts[0]` of the challenge, and what the facilitator is given. */
export function paymentRequirements(ctx: ChallengeContext, requirement: Requirement) {
  const { amount, resource, description } = requirement;
  const memo = challengeMemo(ctx.memoSecret, ctx.requestKey, amount);
  const network = USDC_NETWORKS[ctx.config.x402Network];
  return {
    scheme: 'exact',
    network: ctx.config.x402Network,
    maxAmountRequired: amount.toString(),
    resource,
    description,
    mimeType: 'application/json',
    payTo: ctx.config.payTo,
    maxTimeoutSeconds: ctx.config.x402MaxTimeoutS,
    asset: network.usdc,
    extra: { name: network.domainName, version: network.domainVersion, memo },
    ...(ctx.discovery ? { outputSchema: ctx.discovery.outputSchema } : {}),
  };
}

/**
 * The x402 v2 PaymentRequirements for the same price: CAIP-2 network and `amount`. Deterministic per
 * request (the memo is an HMAC of the request), because v2 payers echo it back in `accepted` and it
 * is matched by equality.
 */
export function paymentRequirementsV2(ctx: ChallengeContext, requirement: Requirement) {
  const v1 = paymentRequirements(ctx, requirement);
  return {
    scheme: v1.scheme,
    network: USDC_NETWORKS[ctx.config.x402Network].caip2,
    amount: v1.maxAmountRequired,
    asset: v1.asset,
    payTo: v1.payTo,
    maxTimeoutSeconds: v1.maxTimeoutSeconds,
    extra: v1.extra,
  };
}

/** The `PAYMENT-REQUIRED` header of a 402: base64 JSON of the x402 v2 PaymentRequired. */
export function paymentRequiredHeader(ctx: ChallengeContext, requirement: Requirement, reason?: string): string {
  const paymentRequired = {
    x402Version: 2,
    error: reason ?? 'payment required',
    resource: { url: requirement.resource, description: requirement.description, mimeType: 'application/json' },
    accepts: [paymentRequirementsV2(ctx, requirement)],
    ...(ctx.discovery ? { extensions: { bazaar: ctx.discovery.bazaar } } : {}),
  };
  return Buffer.from(JSON.stringify(paymentRequired)).toString('base64');
}

/**
 * One 402 body carrying the seed's fields (`error`, `protocol`, `invoice`), the standard x402 v1 fields
 * (`x402Version`, `accepts[]`, whose first entry is this call's price: stock clients pay accepts[0]), and beside them
 * what an agent decides on: the `price`, what it `buys`, and the cheaper `alternatives` (the free tier, passes).
 */
export function paymentChallenge(ctx: ChallengeContext, requirement: Requirement, reason?: string): Record<string, unknown> {
  const expiresS = ctx.nowS + ctx.config.x402MaxTimeoutS;
  const accepts = [paymentRequirements(ctx, requirement)];
  const memo = accepts[0]!.extra.memo;
  return {
    error: 'payment_required',
    message: reason ? `payment required: ${reason}` : `this call costs ${requirement.amount} USDC atomic units (6 decimals)`,
    ...(reason ? { reason } : {}),
    protocol: 'x402',
    invoice: {
      amount: requirement.amount.toString(),
      asset: 'USDC',
      chain: ctx.config.x402Network,
      recipient: ctx.config.payTo,
      memo,
      expires: new Date(expiresS * 1000).toISOString(),
    },
    price: priceOf(requirement.amount),
    buys: requirement.description,
    alternatives: alternativesTo(requirement.resource, requirement.amount, ctx.config.publicUrl),
    x402Version: 1,
    accepts,
  };
}

/**
 * The settlement result in the header of the version paid: `PAYMENT-RESPONSE` (v2) or
 * `X-PAYMENT-RESPONSE` (v1), base64 JSON `{success, transaction, network, payer, errorReason?}`.
 */
export function settlementResponseHeader(
  version: 1 | 2,
  result: { success: boolean; transaction: string; network: string; payer: string; errorReason?: string },
): Record<string, string> {
  return { [version === 2 ? 'payment-response' : 'x-payment-response']: Buffer.from(JSON.stringify(result)).toString('base64') };
}

/** The 402 sent when a synchronous settlement fails after verification: the answer is withheld. */
export function settlementFailed(ctx: ChallengeContext, requirement: Requirement, reason = 'unknown'): Record<string, unknown> {
  return { ...paymentChallenge(ctx, requirement, 'settlement_failed'), message: `settlement failed: ${reason}` };
}
